package dev.headroom.model;

import java.util.Locale;

/** Why a search stopped; the wire name ({@code max_probes}) is what {@code search.json} and the console say. */
public enum StopReason {
    /** The bracket is narrower than the tolerance. */
    TOLERANCE,
    /** Integer loads: the passing and failing ends are adjacent. */
    ADJACENT,
    /** The probe budget ({@code --max-probes}) ran out. */
    MAX_PROBES,
    /** The lowest load of the range already fails. */
    BELOW_MIN,
    /** The highest load of the range still passes. */
    ABOVE_MAX,
    /** Max goodput: the best expected improvement fell below 1 % of the best. */
    CONVERGED,
    /** Not stopped yet: written between probes. */
    RUNNING;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The reason for a wire name; a name no version wrote is an error naming it. */
    public static StopReason parse(String wire) {
        for (StopReason r : values()) if (r.wireName().equals(wire)) return r;
        throw new BadInputException("unknown stop reason '" + wire + "'");
    }
}
