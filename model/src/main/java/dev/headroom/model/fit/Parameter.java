package dev.headroom.model.fit;

/**
 * One free parameter of a model being fitted: its name, the group it belongs to (null: it applies to every
 * observation), its range, and its prior value — where a fit starts, and what it keeps when the data says nothing.
 *
 * @param logScale whether the range is searched in log space (for a positive parameter spanning decades)
 */
public record Parameter(String name, String group, double min, double max, double prior, boolean logScale) {
    public Parameter {
        if (!(min < max) || prior < min || prior > max) {
            throw new IllegalArgumentException(
                    name + ": need min < max and prior in range, got " + min + " .. " + max + " prior " + prior);
        }
        if (logScale && min <= 0) throw new IllegalArgumentException(name + ": a log-scale range must be positive");
    }

    /** Whether it applies to {@code o}: a global parameter, or one of {@code o}'s group or tags. */
    public boolean appliesTo(Observation o) {
        return group == null || group.equals(o.group()) || o.tags().contains(group);
    }

    /** The value at {@code u} in [0, 1] of its range. */
    public double at(double u) {
        double c = Math.max(0, Math.min(1, u));
        return logScale ? Math.exp(Math.log(min) + c * (Math.log(max) - Math.log(min))) : min + c * (max - min);
    }

    /** Where {@code v} lies in [0, 1] of its range. */
    public double unit(double v) {
        double c = Math.max(min, Math.min(max, v));
        return logScale ? (Math.log(c) - Math.log(min)) / (Math.log(max) - Math.log(min)) : (c - min) / (max - min);
    }
}
