package dev.headroom.model;

import org.HdrHistogram.Histogram;

/** Summary statistics of one metric's full distribution (never an average alone). */
public record Distribution(
        long count, double mean, double min, double p50, double p90, double p95, double p99, double p999, double max) {

    /** Summarises a histogram, multiplying every value by {@code scale} (e.g. 1e-3 for µs to ms). */
    public static Distribution of(Histogram h, double scale) {
        if (h.getTotalCount() == 0) return empty();
        return new Distribution(
                h.getTotalCount(),
                h.getMean() * scale,
                h.getMinValue() * scale,
                h.getValueAtPercentile(50) * scale,
                h.getValueAtPercentile(90) * scale,
                h.getValueAtPercentile(95) * scale,
                h.getValueAtPercentile(99) * scale,
                h.getValueAtPercentile(99.9) * scale,
                h.getMaxValue() * scale);
    }

    /** No samples: every statistic is NaN. */
    public static Distribution empty() {
        return new Distribution(
                0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
}
