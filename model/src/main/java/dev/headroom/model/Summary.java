package dev.headroom.model;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * The metrics of one load point, computed from its request records by {@link Metrics}. Latencies are in
 * milliseconds, lengths in tokens, rates per second of the measurement window.
 *
 * @param distributions ttft_ms, ttft_from_send_ms, itl_ms, tpot_ms, e2e_ms, isl, osl, send_lag_ms (in this order)
 * @param histograms    the same distributions as HdrHistograms (µs for times, tokens for lengths), for logs
 * @param oslShort      completed requests whose realised output was shorter than requested
 */
public record Summary(Counts counts, double windowSeconds, Map<String, Distribution> distributions,
                      double outputTokensPerS, double requestsPerS, double totalTokensPerS,
                      double goodputRequestsPerS, double goodputTokensPerS, double sloAttainment, double errorRate,
                      List<SloResult> slo, boolean sloPass, Map<String, Long> errors, long oslShort,
                      Map<String, Histogram> histograms) {

    /** How many requests ended how; warm-up requests are counted apart and in nothing else. */
    public record Counts(long completed, long failed, long incomplete, long warmup) {}

    /** One SLO, what was observed for it, and whether it passed. */
    public record SloResult(Slo slo, double observed, boolean pass) {}

    public Distribution distribution(String key) {
        return distributions.get(key);
    }
}
