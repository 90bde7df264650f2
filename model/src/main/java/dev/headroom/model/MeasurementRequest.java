package dev.headroom.model;

import java.util.List;

/**
 * One load point to measure: the load, the workload, how long, the seed that makes it reproducible, and
 * optionally a rule that ends it early once what it measured is already conclusive.
 *
 * @param stopEarly null, or asked now and then with the measured (non-warm-up) requests finished so far; true
 *                  ends the measurement: no new requests are sent, those in flight finish
 */
public record MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed, StopRule stopEarly) {
    public MeasurementRequest {
        if (load == null || workload == null || length == null) {
            throw new IllegalArgumentException("a measurement needs a load, a workload and a run length");
        }
    }

    /** Runs to its full length. */
    public MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed) {
        this(load, workload, length, seed, null);
    }

    /** Decides whether a measurement has seen enough. */
    @FunctionalInterface
    public interface StopRule {
        boolean enough(List<RequestRecord> measuredSoFar);
    }
}
