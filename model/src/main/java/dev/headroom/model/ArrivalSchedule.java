package dev.headroom.model;

/**
 * An open loop's intended send times, the one definition every driver follows. Without a ramp they are the arrival
 * process's own: the first at 0, then its gaps. A ramp of {@code r} seconds makes the rate rise linearly from 0 to
 * its target over {@code r}, by changing the time of the same arrivals: the one due at {@code s} without a ramp is
 * sent at {@code sqrt(2·r·s)} while {@code s < r/2}, and at {@code s + r/2} after (the inverse of the ramped rate's
 * cumulative, {@code rate·t²/2r} up to {@code r}). Times are whole nanoseconds of run time. Not thread-safe.
 */
public final class ArrivalSchedule {
    private final ArrivalProcess.Gaps gaps;
    private final double rampNanos;
    private double unramped;
    private boolean ended;

    /** The schedule of {@code open} with {@code length}'s ramp; {@code seed} draws the gaps (see {@link Seeds}). */
    public ArrivalSchedule(LoadModel.Open open, RunLength length, long seed) {
        this.gaps = open.arrivals().gaps(open.ratePerSecond(), seed);
        this.rampNanos = length.rampSeconds() * 1e9;
    }

    /** The next intended send time in nanoseconds, or −1 when the arrivals have ended (a replayed trace's last). */
    public long nextNanos() {
        if (ended) return -1;
        double s = unramped;
        double gap = gaps.nextSeconds() * 1e9;
        if (Double.isInfinite(gap)) ended = true;
        else unramped += gap;
        return Math.round(ramped(s, rampNanos));
    }

    /** When the arrival due at {@code s} without a ramp is sent with a ramp of {@code ramp} (both in one unit). */
    public static double ramped(double s, double ramp) {
        if (ramp <= 0) return s;
        return s < ramp / 2 ? Math.sqrt(2 * ramp * s) : s + ramp / 2;
    }
}
