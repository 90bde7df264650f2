package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;

/**
 * Ray LLMPerf {@code token_benchmark_ray.py} summary ({@code *_summary.json}, version 2023-08-31): seconds, flat keys.
 */
final class LlmperfImport {
    private LlmperfImport() {}

    static boolean recognises(JsonNode root) {
        return root.isObject() && root.has("results_ttft_s_mean") && root.has("num_concurrent_requests");
    }

    static List<Imported> read(Path file, JsonNode o) {
        Imported r = new Imported("llmperf", o.path("version").asText("not recorded"), file.toString());
        r.model = o.path("model").asText(null);
        r.loadMode = "closed";
        r.concurrency = Json.num(o.path("num_concurrent_requests"));
        r.label = "concurrency=" + VllmImport.fmt(r.concurrency);
        dist(r, o, "ttft_s", "ttft_ms", 1000);
        dist(r, o, "end_to_end_latency_s", "e2e_ms", 1000);
        dist(r, o, "number_input_tokens", "isl", 1);
        dist(r, o, "number_output_tokens", "osl", 1);
        Long done = Json.count(o.path("results_num_completed_requests"));
        Long started = Json.count(o.path("results_num_requests_started"));
        r.completed = done;
        r.failed = Json.count(o.path("results_number_errors"));
        if (started != null && done != null && r.failed != null) r.incomplete = Math.max(0, started - done - r.failed);
        r.metric("error_rate", Json.num(o.path("results_error_rate")));
        r.metric("output_tokens_per_s", Json.num(o.path("results_mean_output_throughput_token_per_s")));
        Double perMin = Json.num(o.path("results_num_completed_requests_per_min"));
        r.metric("requests_per_s", perMin == null ? null : perMin / 60);
        r.sourceMetrics.put("inter_token_latency_s_mean", Json.num(o.path("results_inter_token_latency_s_mean")));
        r.sourceMetrics.put(
                "inter_token_latency_s_p50", Json.num(o.path("results_inter_token_latency_s_quantiles_p50")));
        r.notes.add(
                "LLMPerf's inter_token_latency is e2e / output tokens per request (the first token included): neither "
                        + "Headroom's itl nor its tpot; kept under source_metrics only");
        r.notes.add("LLMPerf reports seconds; converted to ms");
        return List.of(r);
    }

    private static void dist(Imported r, JsonNode o, String key, String ours, double f) {
        String p = "results_" + key + "_";
        r.stat(ours, "mean", Json.times(Json.num(o.path(p + "mean")), f));
        r.stat(ours, "min", Json.times(Json.num(o.path(p + "min")), f));
        r.stat(ours, "max", Json.times(Json.num(o.path(p + "max")), f));
        for (String q : new String[] {"p50", "p90", "p95", "p99"})
            r.stat(ours, q, Json.times(Json.num(o.path(p + "quantiles_" + q)), f));
    }
}
