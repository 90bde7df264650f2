package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * NVIDIA AIPerf {@code profile_export_aiperf.json}, in its three shapes: metrics at the top level (0.3), under
 * {@code records} keyed by tag (0.1.1), or under {@code records} keyed by display name (0.1.0). With the per-request
 * {@code profile_export.jsonl} beside it, percentiles are computed exactly from the records instead.
 */
final class AiperfImport {
    /** AIPerf tag (and 0.1.0 display name) → Headroom metric. */
    private static final Map<String, String> DISTRIBUTIONS = Map.ofEntries(
            Map.entry("time_to_first_token", "ttft_ms"),
            Map.entry("ttft", "ttft_ms"),
            Map.entry("Time to First Token", "ttft_ms"),
            Map.entry("request_latency", "e2e_ms"),
            Map.entry("Request Latency", "e2e_ms"),
            Map.entry("Time to Last Token", "e2e_ms"),
            Map.entry("inter_token_latency", "tpot_ms"),
            Map.entry("Inter Token Latency", "tpot_ms"),
            Map.entry("output_sequence_length", "osl"),
            Map.entry("input_sequence_length", "isl"));

    private AiperfImport() {}

    static boolean recognises(JsonNode root) {
        if (!root.isObject()) return false;
        if (root.has("records") && root.has("input_config")) return true;
        return root.has("input_config") && (root.has("time_to_first_token") || root.has("request_latency"));
    }

    static List<Imported> read(Path file, JsonNode root) {
        Imported r = new Imported("aiperf", "not recorded", file.toString());
        JsonNode records = root.has("records") ? root.path("records") : root;
        JsonNode cfg = root.path("input_config");
        JsonNode endpoint = cfg.path("endpoint");
        r.url = endpoint.path("url").asText(null);
        r.api = endpoint.path("type").asText(null);
        JsonNode models = endpoint.has("model_names") ? endpoint.path("model_names") : cfg.path("model_names");
        if (models.isArray() && !models.isEmpty()) r.model = models.get(0).asText();
        JsonNode load = cfg.path("loadgen");
        Double conc = Json.num(load.path("concurrency")), rate = Json.num(load.path("request_rate"));
        if (rate != null) {
            r.loadMode = "open";
            r.rate = rate;
            r.arrival = load.path("arrival_pattern")
                    .asText(load.path("request_rate_mode").asText("poisson"));
            r.concurrency = conc;
            r.label = "rate=" + VllmImport.fmt(rate);
        } else if (conc != null) {
            r.loadMode = "closed";
            r.concurrency = conc;
            r.label = "concurrency=" + VllmImport.fmt(conc);
        }
        var fields = records.fieldNames();
        while (fields.hasNext()) {
            String key = fields.next();
            JsonNode m = records.path(key);
            if (!m.isObject()) continue;
            String tag = m.path("tag").asText(key);
            String ours = DISTRIBUTIONS.get(tag);
            if (ours == null) ours = DISTRIBUTIONS.get(key);
            boolean seconds = m.path("unit").asText().equals("sec")
                    || m.path("unit").asText().equals("s");
            if (ours != null) {
                double f = seconds && ours.endsWith("_ms") ? 1000 : 1;
                r.stat(ours, "mean", Json.times(Json.num(m.path("avg")), f));
                for (String s : new String[] {"min", "max", "p50", "p90", "p95", "p99"})
                    r.stat(ours, s, Json.times(Json.num(m.path(s)), f));
                continue;
            }
            Double avg = Json.num(m.path("avg"));
            switch (tag) {
                case "request_throughput" -> r.metric("requests_per_s", avg);
                case "output_token_throughput" -> r.metric("output_tokens_per_s", avg);
                case "goodput" -> r.metric("goodput_requests_per_s", avg);
                case "benchmark_duration" -> r.windowS = seconds || avg == null ? avg : avg / 1000;
                case "request_count" -> r.completed = avg == null ? null : Math.round(avg);
                case "error_request_count" -> r.failed = avg == null ? null : Math.round(avg);
                default -> r.sourceMetrics.put(tag, avg);
            }
        }
        if (r.completed != null && r.failed != null && r.completed + r.failed > 0) {
            r.metric("error_rate", (double) r.failed / (r.completed + r.failed));
        } else if (r.completed != null
                && root.has("error_summary")
                && root.path("error_summary").isArray()
                && root.path("error_summary").isEmpty()) {
            r.failed = 0L;
            r.metric("error_rate", 0.0);
        }
        r.notes.add("AIPerf's inter_token_latency is (e2e - ttft) / (osl - 1) per request: "
                + "imported as tpot_ms, not itl_ms");
        r.notes.add("AIPerf's inter_chunk_latency (a per-request average of chunk gaps) is not Headroom's pooled itl; "
                + "kept under "
                + "source_metrics only");
        // profile_export_aiperf[_N].json is written beside profile_export[_N].jsonl.
        Path jsonl = file.resolveSibling(
                file.getFileName().toString().replace("_aiperf", "").replaceAll("\\.json$", ".jsonl"));
        if (Files.isRegularFile(jsonl)) exactFromRecords(r, jsonl);
        return List.of(r);
    }

    /** Exact percentiles from AIPerf's per-request records (both record shapes), replacing the summary's. */
    private static void exactFromRecords(Imported r, Path jsonl) {
        Imported rec = PerRequestImport.aiperf(jsonl, Json.lines(jsonl)).getFirst();
        long total = rec.completed + rec.failed;
        if (total == 0) return;
        long requests = (r.completed == null ? 0 : r.completed) + (r.failed == null ? 0 : r.failed);
        if (r.completed != null && total != requests && total != r.completed) {
            r.notes.add(jsonl.getFileName() + " holds " + total + " records but the summary counts " + requests
                    + " requests: a different run; the summary's percentiles are kept");
            return;
        }
        for (String m : List.of("ttft_ms", "e2e_ms", "tpot_ms", "itl_ms")) {
            if (rec.distributions.containsKey(m)) r.distributions.put(m, rec.distributions.get(m));
        }
        if (rec.distributions.containsKey("itl_ms")) {
            r.notes.add("itl_ms pooled from the per-request inter_chunk_latency arrays of " + jsonl.getFileName()
                    + " (chunk gaps, not divided by tokens per chunk)");
        }
        r.notes.add("percentiles computed exactly from " + total + " records in " + jsonl.getFileName() + " ("
                + rec.failed + " errors)");
    }
}
