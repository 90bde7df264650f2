package dev.headroom.model;

/**
 * How a measurement starts and when it stops: closed-loop users start evenly over {@code rampSeconds} (so they do
 * not all send their first request at the same instant and stay in lockstep); requests among the first
 * {@code warmupRequests}, or meant to be sent before {@code warmupSeconds}, are warm-up, recorded and excluded from
 * metrics; then it stops after {@code requests} measured requests or {@code maxSeconds} after the warm-up time,
 * whichever is first.
 */
public record RunLength(int requests, double maxSeconds, int warmupRequests, double rampSeconds, double warmupSeconds) {
    public RunLength {
        if (requests < 1) throw new BadInputException("request count must be >= 1, got " + requests);
        if (!(maxSeconds > 0)) throw new BadInputException("duration must be > 0 s, got " + maxSeconds);
        if (warmupRequests < 0) throw new BadInputException("warm-up requests must be >= 0, got " + warmupRequests);
        if (!(rampSeconds >= 0) || Double.isInfinite(rampSeconds)) {
            throw new BadInputException("ramp must be >= 0 s, got " + rampSeconds);
        }
        if (!(warmupSeconds >= 0) || Double.isInfinite(warmupSeconds)) {
            throw new BadInputException("warm-up must be >= 0 s, got " + warmupSeconds);
        }
    }

    /** Warm-up by count only. */
    public RunLength(int requests, double maxSeconds, int warmupRequests, double rampSeconds) {
        this(requests, maxSeconds, warmupRequests, rampSeconds, 0);
    }

    /** No warm-up, no ramp. */
    public RunLength(int requests, double maxSeconds) {
        this(requests, maxSeconds, 0, 0, 0);
    }

    /** Stop after {@code n} requests (with a generous time cap). */
    public static RunLength requests(int n) {
        return new RunLength(n, Double.MAX_VALUE, 0, 0, 0);
    }

    /** Whether request {@code index}, meant to be sent {@code intendedSeconds} into the run, is warm-up. */
    public boolean isWarmup(long index, double intendedSeconds) {
        return index < warmupRequests || intendedSeconds < warmupSeconds;
    }
}
