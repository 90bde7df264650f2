package dev.headroom.runner;

import dev.headroom.model.RunLength;
import java.time.Duration;

/**
 * How long a load point runs, as a user gives it: a time or a count (neither: 30 s), its warm-up (a time, or a count
 * instead; neither: 5 s), the ramp, the grace for requests in flight, and the seed.
 *
 * @param duration null unless given
 * @param requests 0 unless given
 * @param warmup null unless given
 * @param warmupRequests null unless given (0 is given: no warm-up)
 * @param ramp null unless given: then a closed loop's users are spread over one request cycle ({@link #spreadUsers})
 */
public record RunSettings(
        Duration duration,
        int requests,
        Duration warmup,
        Integer warmupRequests,
        Duration ramp,
        Duration grace,
        long seed) {
    /** The warm-up when neither a time nor a count is given. */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(5);

    /** The measured time when neither a time nor a count is given. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);

    /** A synthetic load point's length: the time or count given, else 30 s. */
    public RunLength length() {
        return length(duration == null && requests <= 0 ? DEFAULT_DURATION : duration, requests);
    }

    /** A replay's length: every one of its {@code size} entries once, unless a time or count is given. */
    public RunLength replay(int size) {
        return length(duration, requests > 0 || duration != null ? requests : size);
    }

    /**
     * Whether a closed loop's users are to be started as a search probe's are, over one request cycle estimated from a
     * pilot request ({@link LoadPoints#measureSpread}): when no ramp is given.
     */
    public boolean spreadUsers() {
        return ramp == null;
    }

    /** The warm-up time: as given; else none when a count is given (even 0), else the 5-s default. */
    public Duration effectiveWarmup() {
        if (warmup != null) return warmup;
        return warmupRequests != null ? Duration.ZERO : DEFAULT_WARMUP;
    }

    private RunLength length(Duration d, int n) {
        return new RunLength(
                n,
                d == null ? Double.POSITIVE_INFINITY : seconds(d),
                warmupRequests == null ? 0 : warmupRequests,
                ramp == null ? 0 : seconds(ramp),
                seconds(effectiveWarmup()),
                seconds(grace));
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
