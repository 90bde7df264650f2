package dev.headroom.model;

/** When a measurement stops: after {@code requests} completed requests or {@code maxSeconds}, whichever is first. */
public record RunLength(int requests, double maxSeconds) {
    public RunLength {
        if (requests < 1) throw new IllegalArgumentException("request count must be >= 1, got " + requests);
        if (!(maxSeconds > 0)) throw new IllegalArgumentException("duration must be > 0 s, got " + maxSeconds);
    }

    /** Stop after {@code n} requests (with a generous time cap). */
    public static RunLength requests(int n) {
        return new RunLength(n, Double.MAX_VALUE);
    }
}
