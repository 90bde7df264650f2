package dev.headroom.probe;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;

/**
 * The open loop's absolute send times, in run nanoseconds: each slot is the last one plus a gap of the arrival process,
 * never "now" plus a gap, so the schedule never drifts. Over a ramp of D the rate rises linearly: the gap after a slot
 * at t &lt; D is the process's gap divided by t / D, or by 5 % at most (else the first gap, at t = 0, would be
 * endless); from D on it is the process's own.
 */
final class OpenSchedule {
    /** The smallest share of the rate a ramp starts from. */
    static final double RAMP_FLOOR = 0.05;

    private final ArrivalProcess.Gaps gaps;
    private final double rampNanos;
    private double t;

    OpenSchedule(LoadModel.Open load, double rampSeconds, long arrivalSeed) {
        this.gaps = load.arrivals().gaps(load.ratePerSecond(), arrivalSeed);
        this.rampNanos = Math.round(rampSeconds * 1e9);
    }

    /** The current slot. */
    long intended() {
        return Math.round(t);
    }

    /** Moves on to the next slot; false when there is none (a replayed trace has ended). */
    boolean advance() {
        double gap = gaps.nextSeconds() * 1e9;
        if (Double.isInfinite(gap)) return false;
        if (rampNanos > 0 && t < rampNanos) gap /= Math.max(RAMP_FLOOR, t / rampNanos);
        t += gap;
        return true;
    }
}
