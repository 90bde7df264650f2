package dev.headroom.model;

import java.util.List;

/**
 * One load point to measure, the one validated value every driver runs (the HTTP probe and the simulator's virtual
 * clock): the load (with its own options: think time, cap on requests in flight), the workload, how long, the seed
 * that makes it reproducible (see {@link Seeds}), and optionally a rule that ends it early once what it measured is
 * already conclusive.
 *
 * @param stopEarly        null, or asked every {@link StopRule#CHECK_EVERY} measured requests finished with those
 *                         finished so far; true ends the measurement: no new requests are sent, those in flight finish
 * @param sessions         null for independent requests; else every user (closed loop: the concurrency is sessions
 *                         in progress) or arrival (open loop: the rate is new sessions per second) is a multi-turn
 *                         session, its think time the session's own
 */
public record MeasurementRequest(
        LoadModel load, Workload workload, RunLength length, long seed, StopRule stopEarly, SessionSpec sessions) {
    public MeasurementRequest {
        if (load == null || workload == null || length == null) {
            throw new IllegalArgumentException("a measurement needs a load, a workload and a run length");
        }
        if (sessions != null && load instanceof LoadModel.Closed c && c.thinkTimeSeconds() > 0) {
            throw new IllegalArgumentException("a session's think time is its own (SessionSpec.thinkTime)");
        }
        if (sessions != null && load instanceof LoadModel.Open o && o.maxConcurrency() > 0) {
            throw new BadInputException("{max-concurrency} caps independent requests; an open loop of {sessions} "
                    + "starts each session when it arrives: drop it");
        }
    }

    /**
     * {@code load} with a closed loop's think time or an open loop's cap on requests in flight (0: none) given apart:
     * each goes into its own variant; the other's is refused.
     */
    public MeasurementRequest(
            LoadModel load,
            Workload workload,
            RunLength length,
            long seed,
            StopRule stopEarly,
            double thinkTimeSeconds,
            int maxConcurrency,
            SessionSpec sessions) {
        this(
                LoadModel.withOptions(load, thinkTimeSeconds, maxConcurrency),
                workload,
                length,
                seed,
                stopEarly,
                sessions);
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

    /** Independent requests, the load's options as it carries them. */
    public MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed, StopRule stopEarly) {
        this(load, workload, length, seed, stopEarly, (SessionSpec) null);
    }

    /** Runs to its full length. */
    public MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed) {
        this(load, workload, length, seed, null);
    }

    /** A closed loop's think time between a user's answer and its next request (0 in open loop). */
    public double thinkTimeSeconds() {
        return load instanceof LoadModel.Closed c ? c.thinkTimeSeconds() : 0;
    }

    /** An open loop's cap on requests in flight (0: none, and always in closed loop). */
    public int maxConcurrency() {
        return load instanceof LoadModel.Open o ? o.maxConcurrency() : 0;
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
