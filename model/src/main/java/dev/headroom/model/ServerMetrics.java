package dev.headroom.model;

import java.util.List;
import java.util.Map;

/**
 * What the server said about itself during a probe (its Prometheus {@code /metrics}), summarised: the known vLLM,
 * SGLang and llama.cpp names for running and waiting requests and KV-cache usage (gauges: mean and max over the
 * scrapes), and preemptions and prompt and generation tokens (counters: their increase over the probe). A value the
 * server does not export is NaN.
 *
 * @param url         the scraped URL
 * @param scrapes     scrapes that answered
 * @param failed      scrapes that did not (a warning, never a failed probe)
 * @param names       distinct metric names seen (known or not; every one is kept in server_metrics.jsonl)
 */
public record ServerMetrics(
        String url,
        double intervalSeconds,
        int scrapes,
        int failed,
        int names,
        Map<String, double[]> gauges,
        Map<String, Double> counters) {
    /** Known gauges, each {mean, max}. */
    public static final List<String> GAUGES = List.of("running", "waiting", "kv_cache_usage");
    /**
     * Known counters, each its increase over the probe. {@code prefix_cache_queries} and {@code prefix_cache_hits}
     * count prompt tokens looked up in and served from the server's prefix cache (vLLM V1; SGLang exports only the
     * hits, as {@code sglang:cached_tokens_total}).
     */
    public static final List<String> COUNTERS =
            List.of("preemptions", "prompt_tokens", "generation_tokens", "prefix_cache_queries", "prefix_cache_hits");

    /** The metric names each key is read from, in the order tried: vLLM (V1, then V0), SGLang, llama.cpp. */
    public static final Map<String, List<String>> KNOWN = Map.of(
            "running", List.of("vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing"),
            "waiting", List.of("vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"),
            "kv_cache_usage",
                    List.of(
                            "vllm:kv_cache_usage_perc",
                            "vllm:gpu_cache_usage_perc",
                            "sglang:token_usage",
                            "llamacpp:kv_cache_usage_ratio"),
            "preemptions", List.of("vllm:num_preemptions_total", "sglang:num_retractions_total"),
            "prompt_tokens",
                    List.of("vllm:prompt_tokens_total", "sglang:prompt_tokens_total", "llamacpp:prompt_tokens_total"),
            "generation_tokens",
                    List.of(
                            "vllm:generation_tokens_total",
                            "sglang:generation_tokens_total",
                            "llamacpp:tokens_predicted_total"),
            "prefix_cache_queries", List.of("vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"),
            "prefix_cache_hits",
                    List.of(
                            "vllm:prefix_cache_hits_total",
                            "vllm:gpu_prefix_cache_hits_total",
                            "sglang:cached_tokens_total"));

    /** The most requests the server said were running at any scrape of the probe; NaN when it does not say. */
    public double maxRunning() {
        double[] r = gauges.get("running");
        return r == null || r.length < 2 ? Double.NaN : r[1];
    }

    /** Share of the prompt tokens looked up that the server's prefix cache served over the probe; NaN when unknown. */
    public double prefixCacheHitRate() {
        Double q = counters.get("prefix_cache_queries");
        Double h = counters.get("prefix_cache_hits");
        return q == null || h == null || !(q > 0) ? Double.NaN : h / q;
    }
}
