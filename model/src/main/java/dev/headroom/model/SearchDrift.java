package dev.headroom.model;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Whether the server stayed the same server while it was searched: a reference load (the search's highest sure pass
 * at or below its answer) measured again at the end, and at once when a probe contradicts the probes before it beyond
 * their noise. A check compares each SLO's statistic (and, closed loop, the goodput) at the reference with its first
 * measurement; a change beyond
 * {@link #Z} standard errors and larger than the search's tolerance is drift. Drift widens the answer's interval by
 * its size ({@link SearchReport#ciLow()} and {@code ciHigh()} are then the widened interval, and {@code bracketLow} ..
 * {@code bracketHigh} the measured one).
 *
 * @param checks      each measurement of a reference again, in order
 * @param bracketLow  the answer's interval as measured, before drift widened it
 * @param bracketHigh its upper end
 */
public record SearchDrift(List<Check> checks, double bracketLow, double bracketHigh) {
    /** Standard errors (of the difference of two measurements) beyond which a change is not noise. */
    public static final double Z = 3;

    public SearchDrift {
        checks = List.copyOf(checks);
    }

    /** Why the reference was measured again. */
    public enum Trigger {
        /** The search had its answer: the check every search ends with. */
        END,
        /** A probe contradicted an earlier one beyond both their noise (a higher load passing surely where a lower one
         * failed surely, or the reverse). */
        CONTRADICTION;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Trigger parse(String wire) {
            for (Trigger t : values()) if (t.wireName().equals(wire)) return t;
            throw new BadInputException("unknown drift trigger '" + wire + "'");
        }
    }

    /**
     * One measurement of the reference load again.
     *
     * @param probe          its index (from 1) among the search's probes
     * @param referenceProbe the index of the reference's first measurement
     * @param referenceLoad  the load measured again
     * @param statistic what moved the most (in standard errors, among the changes above the tolerance): an SLO's text
     *                  for its statistic, or {@code goodput} (closed loop: the reference's good requests/s)
     * @param change  that statistic's relative change since the first measurement ((again − first) ÷ first; +0.15:
     *                15 % higher, a slower server for a latency)
     * @param z       the change in standard errors of the difference
     * @param drifted |z| ≥ {@link #Z} and |change| above the search's tolerance
     */
    public record Check(
            int probe,
            Trigger trigger,
            int referenceProbe,
            double referenceLoad,
            String statistic,
            double change,
            double z,
            boolean drifted) {}

    /** Whether any check found drift. */
    public boolean detected() {
        return checks.stream().anyMatch(Check::drifted);
    }

    /** The check that found the largest drift, or the last check when none did. */
    public Check largest() {
        return checks.stream()
                .filter(Check::drifted)
                .max(Comparator.comparingDouble(c -> Math.abs(c.change())))
                .orElse(checks.getLast());
    }

    /**
     * "ttft:p95<300ms at 248 moved +14.2 % (5.1 standard errors) between probes 7 and 12", for messages and gates;
     * {@code label} writes the load.
     */
    public String describe(java.util.function.DoubleFunction<String> label) {
        Check c = largest();
        return String.format(
                Locale.ROOT,
                "%s at %s moved %+.1f %% (%.1f standard errors) between probes %d and %d",
                c.statistic(),
                label.apply(c.referenceLoad()),
                100 * c.change(),
                c.z(),
                c.referenceProbe(),
                c.probe());
    }
}
