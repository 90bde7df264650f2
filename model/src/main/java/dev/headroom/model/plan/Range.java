package dev.headroom.model.plan;

/**
 * A planned number with its range: low from the capacity interval's high end, high from its low end and the p90
 * forecast.
 */
public record Range(double point, double low, double high) {
    public Range plus(Range o) {
        return new Range(point + o.point, low + o.low, high + o.high);
    }

    public static final Range ZERO = new Range(0, 0, 0);
}
