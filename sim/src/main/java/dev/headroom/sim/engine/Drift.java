package dev.headroom.sim.engine;

import dev.headroom.model.BadInputException;

/**
 * A server whose speed is not stationary: every step takes {@code 1 + change × min(1, age ÷ seconds)} times as long as
 * it would, age counted from the server's first step (a real server's throughput moved by 15 % between two runs
 * minutes apart: thermal throttling, a neighbour on the GPU, a cache warming). On the virtual clock the age carries
 * over from one run of the same {@code VirtualEngine} to the next, as a search's probes follow each other.
 *
 * @param change  the relative change in step time reached after {@code seconds} (0.15: 15 % slower; −0.1: faster)
 * @param seconds how long the change takes to build up, linearly; 0 = at once
 */
public record Drift(double change, double seconds) {
    /** A stationary server. */
    public static final Drift NONE = new Drift(0, 0);

    public Drift {
        if (!(change > -0.9 && change <= 10)) {
            throw new BadInputException("{sim-drift} must be a change in step time from -90% to +1000%, got "
                    + Math.round(change * 100) + "%");
        }
        if (!(seconds >= 0 && Double.isFinite(seconds))) {
            throw new BadInputException("{sim-drift-over} must be a duration of 0s or more");
        }
    }

    /**
     * {@code --sim-drift} as a user writes it: a percentage ({@code 15%}, {@code -10%}) or a fraction ({@code 0.15}),
     * reached after {@code seconds}.
     */
    public static Drift parse(String change, double seconds) {
        String t = change == null ? "" : change.strip();
        boolean percent = t.endsWith("%");
        double v;
        try {
            v = Double.parseDouble(percent ? t.substring(0, t.length() - 1).strip() : t);
        } catch (NumberFormatException e) {
            throw new BadInputException("bad {sim-drift} '" + change + "': write the change in step time as a "
                    + "percentage such as 15% (slower) or -10% (faster)");
        }
        if (!Double.isFinite(v) || (percent ? v : v * 100) <= -90 || (percent ? v : v * 100) > 1000) {
            throw new BadInputException(
                    "bad {sim-drift} '" + change + "': the change in step time must be from -90% to +1000%");
        }
        return new Drift(percent ? v / 100 : v, seconds);
    }

    /** The step-time factor at {@code ageSeconds} into the server's life. */
    public double factor(double ageSeconds) {
        if (change == 0) return 1;
        return 1 + change * (seconds <= 0 ? 1 : Math.min(1, Math.max(0, ageSeconds) / seconds));
    }

    public boolean none() {
        return change == 0;
    }
}
