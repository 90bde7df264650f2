package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * GuideLLM benchmarks report (JSON or YAML): {@code benchmarks[]} alone (≤ 0.3) or with {@code metadata} and
 * {@code args} (0.5); one Headroom probe per benchmark. Distributions are {successful, errored, incomplete, total}
 * × {mean, median, min, max, percentiles}; the successful requests' are imported.
 */
final class GuidellmImport {
    private GuidellmImport() {}

    static boolean recognises(JsonNode root) {
        JsonNode b = root.path("benchmarks");
        return b.isArray() && !b.isEmpty() && b.get(0).path("metrics").has("time_to_first_token_ms");
    }

    static List<Imported> read(Path file, JsonNode root) {
        String version = root.at("/metadata/guidellm_version").asText("not recorded");
        List<Imported> out = new ArrayList<>();
        int i = 0;
        for (JsonNode b : root.path("benchmarks")) {
            i++;
            Imported r = new Imported("guidellm", version, file.toString());
            JsonNode strategy = b.has("config") ? b.at("/config/strategy") : b.at("/args/strategy");
            String type = strategy.path("type_").asText("");
            switch (type) {
                case "synchronous" -> {
                    r.loadMode = "closed";
                    r.concurrency = 1.0;
                }
                case "concurrent" -> {
                    r.loadMode = "closed";
                    r.concurrency = Json.num(strategy.path("streams"));
                }
                case "constant", "poisson" -> {
                    r.loadMode = "open";
                    r.rate = Json.num(strategy.path("rate"));
                    r.arrival = type;
                }
                case "throughput" -> {
                    r.loadMode = "open";
                    r.rate = Double.POSITIVE_INFINITY;
                    r.notes.add("GuideLLM throughput strategy: as many requests as it can send");
                }
                default -> {}
            }
            r.label = String.format(
                    "%02d-%s",
                    i,
                    type.isEmpty()
                            ? "benchmark"
                            : type
                                    + (r.concurrency != null && r.loadMode.equals("closed")
                                            ? "=" + VllmImport.fmt(r.concurrency)
                                            : r.rate != null && !r.rate.isInfinite()
                                                    ? "=" + VllmImport.fmt(r.rate)
                                                    : ""));
            JsonNode m = b.path("metrics");
            JsonNode totals = m.has("request_totals") ? m.path("request_totals") : b.path("request_totals");
            r.completed = Json.count(totals.path("successful"));
            r.failed = Json.count(totals.path("errored"));
            r.incomplete = Json.count(totals.path("incomplete"));
            r.windowS = Json.num(b.path("duration"));
            dist(r, m.path("time_to_first_token_ms"), "ttft_ms", 1);
            dist(r, m.path("request_latency"), "e2e_ms", 1000);
            dist(r, m.path("inter_token_latency_ms"), "tpot_ms", 1);
            dist(r, m.path("prompt_token_count"), "isl", 1);
            dist(r, m.path("output_token_count"), "osl", 1);
            r.metric("requests_per_s", Json.num(m.at("/requests_per_second/successful/mean")));
            r.metric("output_tokens_per_s", Json.num(m.at("/output_tokens_per_second/successful/mean")));
            r.metric("total_tokens_per_s", Json.num(m.at("/tokens_per_second/successful/mean")));
            if (r.completed != null && r.failed != null && r.completed + r.failed > 0) {
                r.metric("error_rate", (double) r.failed / (r.completed + r.failed));
            }
            r.sourceMetrics.put(
                    "time_per_output_token_ms_mean", Json.num(m.at("/time_per_output_token_ms/successful/mean")));
            r.notes.add("GuideLLM's inter_token_latency_ms is (last - first token) / (n - 1) per request: imported as "
                    + "tpot_ms");
            r.notes.add(
                    "GuideLLM's time_per_output_token_ms includes the first token ((last - start) / n): not Headroom's "
                            + "tpot; kept under source_metrics only");
            r.notes.add("request_latency is in seconds in GuideLLM; converted to e2e_ms");
            out.add(r);
        }
        return out;
    }

    /** The successful requests' distribution: mean, median, min, max and the percentiles when the file keeps them. */
    private static void dist(Imported r, JsonNode metric, String ours, double f) {
        JsonNode s = metric.path("successful");
        if (s.isMissingNode()) return;
        r.stat(ours, "mean", Json.times(Json.num(s.path("mean")), f));
        r.stat(ours, "p50", Json.times(Json.num(s.path("median")), f));
        r.stat(ours, "min", Json.times(Json.num(s.path("min")), f));
        r.stat(ours, "max", Json.times(Json.num(s.path("max")), f));
        JsonNode p = s.path("percentiles");
        if (p.isObject()) {
            for (String q : new String[] {"p90", "p95", "p99", "p999"})
                r.stat(ours, q, Json.times(Json.num(p.path(q)), f));
        }
    }
}
