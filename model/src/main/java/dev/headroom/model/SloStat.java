package dev.headroom.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The statistic of a latency SLO; its text ({@code p99.9}) is how SLOs are written. */
public enum SloStat {
    MEAN("mean", Double.NaN, Double.NaN),
    MIN("min", 0, Double.NaN),
    MAX("max", 1, Double.NaN),
    P50("p50", 50 / 100.0, 50),
    P90("p90", 90 / 100.0, 90),
    P95("p95", 95 / 100.0, 95),
    P99("p99", 99 / 100.0, 99),
    P999("p99.9", 0.999, 99.9);

    private final String text;
    private final double quantile;
    /** The percentile as written, for the nearest-rank rule. */
    private final double percent;

    SloStat(String text, double quantile, double percent) {
        this.text = text;
        this.quantile = quantile;
        this.percent = percent;
    }

    public String text() {
        return text;
    }

    /** The quantile it is (min 0, max 1); NaN for the mean. */
    public double quantile() {
        return quantile;
    }

    /** This statistic of a summarised distribution. */
    public double of(Distribution d) {
        return switch (this) {
            case MEAN -> d.mean();
            case MIN -> d.min();
            case MAX -> d.max();
            case P50 -> d.p50();
            case P90 -> d.p90();
            case P95 -> d.p95();
            case P99 -> d.p99();
            case P999 -> d.p999();
        };
    }

    /** This statistic of a small sample, percentiles by nearest rank (as HdrHistogram reports them); NaN when empty. */
    public double of(double[] values) {
        if (values.length == 0) return Double.NaN;
        double[] v = values.clone();
        Arrays.sort(v);
        return switch (this) {
            case MEAN -> Arrays.stream(v).average().orElse(Double.NaN);
            case MIN -> v[0];
            case MAX -> v[v.length - 1];
            default -> {
                int rank = (int) Math.ceil(percent / 100 * v.length);
                yield v[Math.max(0, Math.min(v.length - 1, rank - 1))];
            }
        };
    }

    /** All texts, for messages. */
    public static String names() {
        return Arrays.stream(values()).map(SloStat::text).collect(Collectors.joining(", "));
    }

    /** The statistic of a text ({@code p999} too), or null when there is none. */
    public static SloStat find(String text) {
        if (text.equals("p999")) return P999;
        for (SloStat s : values()) if (s.text.equals(text)) return s;
        return null;
    }
}
