package dev.headroom.model;

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
public record ServerMetrics(String url, double intervalSeconds, int scrapes, int failed, int names,
                            Map<String, double[]> gauges, Map<String, Double> counters) {
    /** Known gauges, each {mean, max}. */
    public static final java.util.List<String> GAUGES = java.util.List.of("running", "waiting", "kv_cache_usage");
    /** Known counters, each its increase over the probe. */
    public static final java.util.List<String> COUNTERS = java.util.List.of("preemptions", "prompt_tokens", "generation_tokens");

    /** The metric names each key is read from, in the order tried: vLLM (V1, then V0), SGLang, llama.cpp. */
    public static final Map<String, java.util.List<String>> KNOWN = Map.of(
            "running", java.util.List.of("vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing"),
            "waiting", java.util.List.of("vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"),
            "kv_cache_usage", java.util.List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage",
                    "llamacpp:kv_cache_usage_ratio"),
            "preemptions", java.util.List.of("vllm:num_preemptions_total", "sglang:num_retractions_total"),
            "prompt_tokens", java.util.List.of("vllm:prompt_tokens_total", "sglang:prompt_tokens_total", "llamacpp:prompt_tokens_total"),
            "generation_tokens", java.util.List.of("vllm:generation_tokens_total", "sglang:generation_tokens_total",
                    "llamacpp:tokens_predicted_total"));
}
