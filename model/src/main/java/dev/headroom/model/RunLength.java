package dev.headroom.model;

/**
 * When a measurement stops: after {@code requests} measured requests or {@code maxSeconds}, whichever is first;
 * the first {@code warmupRequests} requests before them are sent, recorded as warm-up, and excluded from metrics.
 */
public record RunLength(int requests, double maxSeconds, int warmupRequests) {
    public RunLength {
        if (requests < 1) throw new IllegalArgumentException("request count must be >= 1, got " + requests);
        if (!(maxSeconds > 0)) throw new IllegalArgumentException("duration must be > 0 s, got " + maxSeconds);
        if (warmupRequests < 0) throw new IllegalArgumentException("warm-up requests must be >= 0, got " + warmupRequests);
    }

    /** No warm-up. */
    public RunLength(int requests, double maxSeconds) {
        this(requests, maxSeconds, 0);
    }

    /** Stop after {@code n} requests (with a generous time cap). */
    public static RunLength requests(int n) {
        return new RunLength(n, Double.MAX_VALUE, 0);
    }

    /** The same length with {@code n} warm-up requests first. */
    public RunLength withWarmup(int n) {
        return new RunLength(requests, maxSeconds, n);
    }
}
