package dev.headroom.model;

/**
 * How a measurement starts and when it stops: closed-loop users start evenly over {@code rampSeconds} (so they do
 * not all send their first request at the same instant and stay in lockstep; an open-loop rate rises linearly over
 * it); requests among the first {@code warmupRequests}, or meant to be sent before {@code warmupSeconds}, are
 * warm-up, recorded and excluded from metrics; then it stops after {@code requests} measured requests or
 * {@code maxSeconds} after the warm-up time, whichever is first; requests in flight then have {@code graceSeconds}
 * to finish.
 *
 * @param requests     measured requests to send; 0 stops by time only
 * @param maxSeconds   measured time after the warm-up time; infinite stops by count only
 * @param graceSeconds how long requests in flight may finish after the last send; later ones are cut off and
 *                     counted as incomplete
 */
public record RunLength(
        int requests,
        double maxSeconds,
        int warmupRequests,
        double rampSeconds,
        double warmupSeconds,
        double graceSeconds) {
    /** The grace a run gets unless it says otherwise. */
    public static final double DEFAULT_GRACE_SECONDS = 30;

    public RunLength {
        if (requests < 0) throw new BadInputException("{requests} must be >= 0, got " + requests);
        if (!(maxSeconds > 0)) throw new BadInputException("{duration} must be > 0 s, got " + maxSeconds);
        if (requests == 0 && Double.isInfinite(maxSeconds)) {
            throw new BadInputException("give {duration} or {requests} to say when the run stops");
        }
        if (warmupRequests < 0) throw new BadInputException("{warmup-requests} must be >= 0, got " + warmupRequests);
        nonNegative("ramp", rampSeconds);
        nonNegative("warmup", warmupSeconds);
        nonNegative("grace", graceSeconds);
    }

    private static void nonNegative(String input, double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new BadInputException("{" + input + "} must be >= 0 s, got " + seconds);
        }
    }

    /** The default grace. */
    public RunLength(int requests, double maxSeconds, int warmupRequests, double rampSeconds, double warmupSeconds) {
        this(requests, maxSeconds, warmupRequests, rampSeconds, warmupSeconds, DEFAULT_GRACE_SECONDS);
    }

    /** Warm-up by count only. */
    public RunLength(int requests, double maxSeconds, int warmupRequests, double rampSeconds) {
        this(requests, maxSeconds, warmupRequests, rampSeconds, 0);
    }

    /** No warm-up, no ramp. */
    public RunLength(int requests, double maxSeconds) {
        this(requests, maxSeconds, 0, 0, 0);
    }

    /** Stop after {@code n} measured requests, with no time cap. */
    public static RunLength requests(int n) {
        return new RunLength(n, Double.POSITIVE_INFINITY, 0, 0, 0);
    }

    /** Whether the run stops by time (it may also stop by count). */
    public boolean timed() {
        return Double.isFinite(maxSeconds);
    }

    /**
     * When closed-loop user {@code user} of {@code users} sends its first request, in nanoseconds of run time: evenly
     * over the ramp, the first at 0 (a lone user at once).
     */
    public long userStartNanos(int user, int users) {
        return users == 1 ? 0 : Math.round(rampSeconds * 1e9) * user / users;
    }

    /** Whether request {@code index}, meant to be sent {@code intendedSeconds} into the run, is warm-up. */
    public boolean isWarmup(long index, double intendedSeconds) {
        return index < warmupRequests || intendedSeconds < warmupSeconds;
    }
}
