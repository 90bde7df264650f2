package dev.headroom.model;

import java.util.SplittableRandom;

/**
 * What a load point's seed gives, the same on every driver: request {@code i}'s own random stream (its lengths are
 * drawn from it, input first), and the arrival process's stream. So the same {@code --seed} sends the same
 * workload over HTTP and on the virtual clock. A session's turns draw from their own streams, keyed by the session's
 * number and the turn's place in it, so a session says the same whichever user ran it.
 */
public final class Seeds {
    private Seeds() {}

    /** Request {@code index}'s stream: independent of how many requests came before or how they were scheduled. */
    public static SplittableRandom request(long seed, long index) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    }

    /** The stream of call {@code call} of turn {@code turn} of session {@code session}. */
    public static SplittableRandom turn(long seed, SessionTurn where) {
        long h = seed * 0xC2B2AE3D27D4EB4FL + where.session();
        h = h * 0x9E3779B97F4A7C15L + where.turn();
        return new SplittableRandom(h * 0xBF58476D1CE4E5B9L + where.call());
    }

    /** The stream of the think time after turn {@code turn} of session {@code session}: its own, not its lengths'. */
    public static SplittableRandom think(long seed, SessionTurn where) {
        return new SplittableRandom(turn(seed, where).nextLong() ^ 0x7F4A7C159E3779B9L);
    }

    /** The seed of the open-loop inter-arrival gaps. */
    public static long arrivals(long seed) {
        return seed ^ 0x5851F42D4C957F2DL;
    }
}
