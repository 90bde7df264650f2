package dev.headroom.model;

import java.util.List;

/**
 * One load point to measure, the one validated value every driver runs (the HTTP probe and the simulator's virtual
 * clock): the load, the workload, how long, the seed that makes it reproducible (see {@link Seeds}), closed-loop
 * think time, an open-loop cap on requests in flight, and optionally a rule that ends it early once what it
 * measured is already conclusive.
 *
 * @param stopEarly        null, or asked every {@link StopRule#CHECK_EVERY} measured requests finished with those
 *                         finished so far; true ends the measurement: no new requests are sent, those in flight finish
 * @param thinkTimeSeconds closed loop: pause between a user's response and its next request
 * @param maxConcurrency   open loop: cap on requests in flight (0 = none); time waited for a slot is reported
 * @param sessions         null for independent requests; else every user (closed loop: the concurrency is sessions
 *                         in progress) or arrival (open loop: the rate is new sessions per second) is a multi-turn
 *                         session, its think time the session's own
 */
public record MeasurementRequest(
        LoadModel load,
        Workload workload,
        RunLength length,
        long seed,
        StopRule stopEarly,
        double thinkTimeSeconds,
        int maxConcurrency,
        SessionSpec sessions) {
    public MeasurementRequest {
        if (load == null || workload == null || length == null) {
            throw new IllegalArgumentException("a measurement needs a load, a workload and a run length");
        }
        if (!(thinkTimeSeconds >= 0) || Double.isInfinite(thinkTimeSeconds)) {
            throw new BadInputException("{think-time} must be >= 0 s, got " + thinkTimeSeconds);
        }
        if (maxConcurrency < 0) throw new BadInputException("{max-concurrency} must be >= 0, got " + maxConcurrency);
        if (maxConcurrency > 0 && load instanceof LoadModel.Closed) {
            throw new BadInputException("{max-concurrency} caps an open-loop {rate}; with {concurrency} the "
                    + "number of users is already the cap");
        }
        if (sessions != null && thinkTimeSeconds > 0) {
            throw new IllegalArgumentException("a session's think time is its own (SessionSpec.thinkTime)");
        }
    }

    /** Independent requests. */
    public MeasurementRequest(
            LoadModel load,
            Workload workload,
            RunLength length,
            long seed,
            StopRule stopEarly,
            double thinkTimeSeconds,
            int maxConcurrency) {
        this(load, workload, length, seed, stopEarly, thinkTimeSeconds, maxConcurrency, null);
    }

    /** No think time, no cap. */
    public MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed, StopRule stopEarly) {
        this(load, workload, length, seed, stopEarly, 0, 0);
    }

    /** Runs to its full length. */
    public MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed) {
        this(load, workload, length, seed, null);
    }

    public boolean openLoop() {
        return load instanceof LoadModel.Open;
    }

    /** Decides whether a measurement has seen enough. */
    @FunctionalInterface
    public interface StopRule {
        /** Every driver asks after every this many measured requests finish. */
        int CHECK_EVERY = 10;

        boolean enough(List<RequestRecord> measuredSoFar);

        /** Whether it reads inter-token gaps (an itl SLO): if not, the records it is given need no chunk times. */
        default boolean needsChunkTimes() {
            return true;
        }
    }
}
