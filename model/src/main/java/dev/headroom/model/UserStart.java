package dev.headroom.model;

import java.util.Locale;

/**
 * How a load point's users were started, as its result says: all at once, evenly over a ramp a user gave, or evenly
 * over one request cycle at that load (the default for closed loops of more than one user in {@code probe} and in
 * every search probe), estimated from a pilot request sent alone or from the loads a search measured before.
 *
 * @param rampSeconds the time the users' first requests were spread over (0 at once)
 * @param basis       what the cycle was estimated from (empty unless {@link How#ONE_CYCLE})
 */
public record UserStart(How how, double rampSeconds, String basis) {
    /** How the users were started. */
    public enum How {
        /** Every user (or an open loop's full rate) from the start. */
        AT_ONCE,
        /** Evenly over the ramp given, an open loop's rate rising linearly over it. */
        RAMP,
        /** Evenly over one request cycle at this load, estimated. */
        ONE_CYCLE;

        /** The name results use: {@code at_once}, {@code ramp}, {@code one_cycle}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The value of {@code name}, or null. */
        public static How ofWire(String name) {
            for (How h : values()) if (h.wireName().equals(name)) return h;
            return null;
        }
    }

    public UserStart {
        if (!(rampSeconds >= 0) || Double.isInfinite(rampSeconds)) {
            throw new IllegalArgumentException("a ramp is >= 0 s, got " + rampSeconds);
        }
        basis = basis == null ? "" : basis;
    }

    /** What a point's own run length says: at once without a ramp, else the ramp given. */
    public static UserStart of(RunLength length) {
        return length.rampSeconds() > 0
                ? new UserStart(How.RAMP, length.rampSeconds(), "")
                : new UserStart(How.AT_ONCE, 0, "");
    }

    /** Spread over {@code cycleSeconds}, one request cycle estimated from {@code basis}. */
    public static UserStart oneCycle(double cycleSeconds, String basis) {
        return new UserStart(How.ONE_CYCLE, cycleSeconds, basis);
    }
}
