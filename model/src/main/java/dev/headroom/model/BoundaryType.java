package dev.headroom.model;

import java.util.Locale;

/** The shape of the SLO boundary a search found; the wire name is what {@code search.json} says. */
public enum BoundaryType {
    /** The margin crosses zero gradually. */
    SMOOTH,
    /** The margin jumps across zero between two adjacent loads (a queue, a KV-cache cliff). */
    CLIFF,
    /** Max goodput: the answer is a peak, not a boundary. */
    PEAK,
    /** Not known yet: written between probes. */
    UNKNOWN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type for a wire name, or null for none (a file that had none). */
    public static BoundaryType parse(String wire) {
        if (wire == null) return null;
        for (BoundaryType t : values()) if (t.wireName().equals(wire)) return t;
        throw new BadInputException("unknown boundary type '" + wire + "'");
    }
}
