package dev.headroom.model;

import java.util.SplittableRandom;

/**
 * What a load point's seed gives, the same on every driver: request {@code i}'s own random stream (its lengths are
 * drawn from it, input first), and the arrival process's stream. So the same {@code --seed} sends the same
 * workload over HTTP and on the virtual clock.
 */
public final class Seeds {
    private Seeds() {}

    /** Request {@code index}'s stream: independent of how many requests came before or how they were scheduled. */
    public static SplittableRandom request(long seed, long index) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    }

    /** The seed of the open-loop inter-arrival gaps. */
    public static long arrivals(long seed) {
        return seed ^ 0x5851F42D4C957F2DL;
    }
}
