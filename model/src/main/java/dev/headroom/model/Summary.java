package dev.headroom.model;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The metrics of one load point, computed from its request records by {@link Metrics}. Latencies are in
 * milliseconds, lengths in tokens, rates per second of the measurement window.
 *
 * @param distributions every {@link Metric}, in its order
 * @param histograms    the same distributions as HdrHistograms (µs for times, tokens for lengths), for logs
 * @param oslShort      completed requests whose realised output was shorter than requested
 * @param cache         what the server said it served from its prefix cache
 * @param connections   how the requests' connections behaved (warm-up included)
 * @param requestedIslMean mean input length the measured completed requests' prompts were built for, NaN when none
 *                      was asked for; beside {@code isl}'s mean it says how well lengths were hit
 */
public record Summary(
        Counts counts,
        double windowSeconds,
        Map<Metric, Distribution> distributions,
        double outputTokensPerS,
        double requestsPerS,
        double totalTokensPerS,
        double goodputRequestsPerS,
        double goodputTokensPerS,
        double sloAttainment,
        double errorRate,
        List<SloResult> slo,
        boolean sloPass,
        Map<String, Long> errors,
        long oslShort,
        Map<Metric, Histogram> histograms,
        Cache cache,
        Connections connections,
        double requestedIslMean) {

    /**
     * How many requests ended how; warm-up requests are counted apart and in nothing else, and so are the client's
     * own errors (a request sent on a connection the server had already closed), which are no server's failure.
     */
    public record Counts(long completed, long failed, long incomplete, long warmup, long clientErrors) {}

    /**
     * Prefix-cache use as the server reported it in {@code usage.prompt_tokens_details.cached_tokens}, over the
     * measured completed requests.
     *
     * @param reporting     requests whose usage said how many prompt tokens were cached
     * @param promptTokens  their prompt tokens
     * @param cachedTokens  of those, served from the server's cache
     * @param hits          requests with more than {@link Metrics#CACHE_HIT_TOKENS} tokens cached: more than a chat
     *                      template's common prefix, so text seen before
     */
    public record Cache(long reporting, long promptTokens, long cachedTokens, long hits) {
        /** Cached share of the reporting requests' prompt tokens; NaN when none reported. */
        public double cachedFraction() {
            return promptTokens == 0 ? Double.NaN : (double) cachedTokens / promptTokens;
        }
    }

    /**
     * @param opened  requests that opened a new connection
     * @param reused  requests sent on a kept-alive connection
     * @param stale   requests that failed on a kept-alive connection the server had closed (the client's race)
     */
    public record Connections(long opened, long reused, long stale) {}

    /** One SLO, what was observed for it, and whether it passed. */
    public record SloResult(Slo slo, double observed, boolean pass) {}

    /**
     * This summary with {@code more} SLO results, judged elsewhere (a session SLO, over whole sessions), after its
     * own; it passes only when they pass too.
     */
    public Summary withSlo(List<SloResult> more) {
        if (more.isEmpty()) return this;
        List<SloResult> all = new java.util.ArrayList<>(slo);
        all.addAll(more);
        return new Summary(
                counts,
                windowSeconds,
                distributions,
                outputTokensPerS,
                requestsPerS,
                totalTokensPerS,
                goodputRequestsPerS,
                goodputTokensPerS,
                sloAttainment,
                errorRate,
                List.copyOf(all),
                sloPass && more.stream().allMatch(SloResult::pass),
                errors,
                oslShort,
                histograms,
                cache,
                connections,
                requestedIslMean);
    }

    public Distribution distribution(Metric key) {
        return distributions.get(key);
    }
}
