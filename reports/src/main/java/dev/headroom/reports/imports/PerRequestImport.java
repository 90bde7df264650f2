package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per-request files, from which every percentile is computed exactly: AIPerf's {@code profile_export.jsonl},
 * LLMPerf's {@code *_individual_responses.json}, and perf_analyzer's {@code profile_export.json} behind GenAI-Perf.
 */
final class PerRequestImport {
    private PerRequestImport() {}

    static boolean isAiperfRecords(JsonNode first) {
        return first.isObject() && first.has("metadata") && first.has("metrics");
    }

    static boolean isLlmperfResponses(JsonNode root) {
        return root.isArray()
                && !root.isEmpty()
                && root.get(0).has("ttft_s")
                && root.get(0).has("end_to_end_latency_s");
    }

    static boolean isPerfAnalyzer(JsonNode root) {
        return root.isObject() && root.has("experiments") && root.has("service_kind");
    }

    static List<Imported> aiperf(Path file, List<JsonNode> lines) {
        Imported r = new Imported("aiperf", "not recorded", file.toString());
        List<Double> ttft = new ArrayList<>(),
                e2e = new ArrayList<>(),
                tpot = new ArrayList<>(),
                isl = new ArrayList<>(),
                osl = new ArrayList<>(),
                itl = new ArrayList<>();
        long ok = 0, errors = 0;
        for (JsonNode line : lines) {
            JsonNode meta = line.path("metadata");
            if (meta.path("credit_phase")
                    .asText(meta.path("benchmark_phase").asText("profiling"))
                    .equals("warmup")) continue;
            if (line.has("error") && !line.path("error").isNull()) {
                errors++;
                continue;
            }
            ok++;
            JsonNode m = line.path("metrics");
            add(ttft, m.has("time_to_first_token") ? m.path("time_to_first_token") : m.path("ttft"), 1);
            add(e2e, m.path("request_latency"), 1);
            add(tpot, m.path("inter_token_latency"), 1);
            add(isl, m.path("input_sequence_length"), 1);
            add(osl, m.path("output_sequence_length"), 1);
            JsonNode icl = m.path("inter_chunk_latency").path("value");
            if (icl.isArray()) icl.forEach(v -> itl.add(v.asDouble()));
        }
        r.completed = ok;
        r.failed = errors;
        if (ok + errors > 0) r.metric("error_rate", (double) errors / (ok + errors));
        put(r, "ttft_ms", ttft);
        put(r, "e2e_ms", e2e);
        put(r, "tpot_ms", tpot);
        put(r, "isl", isl);
        put(r, "osl", osl);
        put(r, "itl_ms", itl);
        r.label = "records";
        r.notes.add("computed from AIPerf's per-request records; the load model and throughput are in "
                + "profile_export_aiperf.json");
        r.notes.add("AIPerf's inter_token_latency is (e2e - ttft) / (osl - 1) per request: imported as tpot_ms");
        return List.of(r);
    }

    static List<Imported> llmperf(Path file, JsonNode root) {
        Imported r = new Imported("llmperf", "not recorded", file.toString());
        List<Double> ttft = new ArrayList<>(),
                e2e = new ArrayList<>(),
                isl = new ArrayList<>(),
                osl = new ArrayList<>();
        long ok = 0, errors = 0;
        for (JsonNode q : root) {
            if (!q.path("error_code").isNull() && !q.path("error_code").isMissingNode()) {
                errors++;
                continue;
            }
            ok++;
            add(ttft, q.path("ttft_s"), 1000);
            add(e2e, q.path("end_to_end_latency_s"), 1000);
            add(isl, q.path("number_input_tokens"), 1);
            add(osl, q.path("number_output_tokens"), 1);
        }
        r.completed = ok;
        r.failed = errors;
        if (ok + errors > 0) r.metric("error_rate", (double) errors / (ok + errors));
        put(r, "ttft_ms", ttft);
        put(r, "e2e_ms", e2e);
        put(r, "isl", isl);
        put(r, "osl", osl);
        r.label = "responses";
        r.notes.add(
                "computed from LLMPerf's individual responses (seconds, converted to ms); the concurrency is in the "
                        + "*_summary.json beside it");
        r.notes.add("LLMPerf's inter_token_latency (e2e / output tokens) is neither Headroom's itl nor its tpot; not "
                + "imported");
        return List.of(r);
    }

    static List<Imported> perfAnalyzer(Path file, JsonNode root) {
        List<Imported> out = new ArrayList<>();
        for (JsonNode e : root.path("experiments")) {
            Imported r = new Imported(
                    "genai-perf", "perf_analyzer " + root.path("version").asText("?"), file.toString());
            String mode = e.at("/experiment/mode").asText();
            Double value = Json.num(e.at("/experiment/value"));
            if (mode.equals("concurrency")) {
                r.loadMode = "closed";
                r.concurrency = value;
                r.label = "concurrency=" + VllmImport.fmt(value);
            } else if (mode.equals("request_rate")) {
                r.loadMode = "open";
                r.rate = value;
                r.label = "rate=" + VllmImport.fmt(value);
            }
            List<Double> ttft = new ArrayList<>(), e2e = new ArrayList<>();
            long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
            boolean streaming = false;
            for (JsonNode q : e.path("requests")) {
                long start = q.path("timestamp").asLong();
                JsonNode resp = q.path("response_timestamps");
                if (!resp.isArray() || resp.isEmpty()) continue;
                long end = resp.get(resp.size() - 1).asLong();
                e2e.add((end - start) / 1e6);
                if (resp.size() > 1) {
                    streaming = true;
                    ttft.add((resp.get(0).asLong() - start) / 1e6);
                }
                first = Math.min(first, start);
                last = Math.max(last, end);
            }
            r.completed = (long) e2e.size();
            put(r, "e2e_ms", e2e);
            if (streaming) put(r, "ttft_ms", ttft);
            else r.notes.add("one response per request (not streamed): no TTFT to import");
            if (last > first) {
                r.windowS = (last - first) / 1e9;
                r.metric("requests_per_s", e2e.size() / r.windowS);
            }
            r.notes.add("computed from perf_analyzer's per-request timestamps");
            out.add(r);
        }
        return out;
    }

    private static void add(List<Double> out, JsonNode n, double factor) {
        Double v = Json.num(n.has("value") ? n.path("value") : n);
        if (v != null && Double.isFinite(v)) out.add(v * factor);
    }

    /** Mean, min, max and nearest-rank percentiles of the values. */
    static void put(Imported r, String metric, List<Double> values) {
        if (values.isEmpty()) return;
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        r.distributions.remove(metric);
        r.stat(metric, "mean", Arrays.stream(v).average().orElse(Double.NaN));
        r.stat(metric, "min", v[0]);
        r.stat(metric, "max", v[v.length - 1]);
        for (double q : new double[] {0.5, 0.9, 0.95, 0.99, 0.999}) {
            int i = Math.max(0, Math.min(v.length - 1, (int) Math.ceil(q * v.length) - 1));
            r.stat(metric, q == 0.999 ? "p999" : "p" + Math.round(q * 100), v[i]);
        }
    }
}
