package dev.headroom.model;

import org.HdrHistogram.Histogram;

/** Summary statistics of one metric's full distribution (never an average alone). */
public record Distribution(long count, double mean, double min, double p50, double p90, double p95, double p99,
                           double p999, double max) {

    /** The statistic named as in SLOs: mean, min, max, p50, p90, p95, p99, p99.9 (or p999). */
    public double stat(String name) {
        return switch (name) {
            case "mean" -> mean;
            case "min" -> min;
            case "max" -> max;
            case "p50" -> p50;
            case "p90" -> p90;
            case "p95" -> p95;
            case "p99" -> p99;
            case "p99.9", "p999" -> p999;
            default -> throw new IllegalArgumentException("unknown statistic '" + name
                    + "': valid are mean, min, max, p50, p90, p95, p99, p99.9");
        };
    }

    /** Summarises a histogram, multiplying every value by {@code scale} (e.g. 1e-3 for µs to ms). */
    public static Distribution of(Histogram h, double scale) {
        if (h.getTotalCount() == 0) return empty();
        return new Distribution(h.getTotalCount(), h.getMean() * scale, h.getMinValue() * scale,
                h.getValueAtPercentile(50) * scale, h.getValueAtPercentile(90) * scale,
                h.getValueAtPercentile(95) * scale, h.getValueAtPercentile(99) * scale,
                h.getValueAtPercentile(99.9) * scale, h.getMaxValue() * scale);
    }

    /** No samples: every statistic is NaN. */
    public static Distribution empty() {
        return new Distribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN);
    }
}
