package dev.headroom.model.fit;

import dev.headroom.model.BadInputException;
import dev.headroom.model.SloStat;

/**
 * One number observed at a load point: {@code stat} of {@code metric} (a rate's stat is {@code MEAN} and unused).
 *
 * @param value  in the metric's unit (ms, tokens/s, requests/s); positive
 * @param window the part of the run a rate was counted over, or null for the whole run (latencies: always null)
 */
public record Target(ObservedMetric metric, SloStat stat, double value, RateWindow window) {
    public Target {
        if (metric == null || stat == null) throw new IllegalArgumentException("a target needs a metric and a stat");
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new BadInputException("observed " + metric.key() + " must be > 0, got " + value);
        }
        if (window != null && !metric.isRate()) {
            throw new BadInputException("a window applies to a rate, not to " + metric.key());
        }
    }

    /** Over the whole run. */
    public Target(ObservedMetric metric, SloStat stat, double value) {
        this(metric, stat, value, null);
    }

    /**
     * Whether this is a tail statistic (p90 and above) of a latency: scored apart from the central ones (mean,
     * median), as a model can get the middle right and the tail wrong.
     */
    public boolean isTail() {
        return !metric.isRate()
                && (stat == SloStat.P90
                        || stat == SloStat.P95
                        || stat == SloStat.P99
                        || stat == SloStat.P999
                        || stat == SloStat.MAX);
    }

    /** "ttft_ms p50", "output_tokens_per_s". */
    public String label() {
        return metric.isRate() ? metric.key() : metric.key() + " " + stat.text();
    }
}
