package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * SGLang {@code bench_serving --output-file} JSON Lines: one line per run (runs are appended), {@code Infinity}
 * allowed.
 */
final class SglangImport {
    private SglangImport() {}

    static boolean recognises(JsonNode first) {
        return first.isObject()
                && first.has("backend")
                && first.has("dataset_name")
                && first.has("median_e2e_latency_ms");
    }

    static List<Imported> read(Path file, List<JsonNode> lines) {
        List<Imported> out = new ArrayList<>();
        for (JsonNode o : lines) {
            Imported r = new Imported("sglang", "not recorded", file.toString());
            r.api = o.path("backend").asText(null);
            r.model = o.path("model_id").asText(null);
            Double rate = Json.num(o.path("request_rate")), conc = Json.num(o.path("max_concurrency"));
            if (rate != null && rate.isInfinite() && conc != null) {
                r.loadMode = "closed";
                r.concurrency = conc;
                r.label = "concurrency=" + VllmImport.fmt(conc);
            } else if (rate != null) {
                r.loadMode = "open";
                r.rate = rate;
                r.arrival = "poisson";
                r.concurrency = conc;
                r.label = "rate=" + VllmImport.fmt(rate);
            }
            r.windowS = Json.num(o.path("duration"));
            r.completed = Json.count(o.path("completed"));
            for (String[] m : new String[][] {
                {"ttft", "ttft_ms"}, {"itl", "itl_ms"}, {"e2e_latency", "e2e_ms"}, {"tpot", "tpot_ms"}
            }) {
                r.stat(m[1], "mean", Json.num(o.path("mean_" + m[0] + "_ms")));
                r.stat(m[1], "p50", Json.num(o.path("median_" + m[0] + "_ms")));
                r.stat(m[1], "p99", Json.num(o.path("p99_" + m[0] + "_ms")));
            }
            r.metric("output_tokens_per_s", Json.num(o.path("output_throughput")));
            r.metric("requests_per_s", Json.num(o.path("request_throughput")));
            r.metric("total_tokens_per_s", Json.num(o.path("total_throughput")));
            if (r.completed != null && r.completed > 0) {
                Double in = Json.num(o.path("total_input_tokens")), outTok = Json.num(o.path("total_output_tokens"));
                r.stat("isl", "mean", in == null ? null : in / r.completed);
                r.stat("osl", "mean", outTok == null ? null : outTok / r.completed);
                if (!r.metrics.containsKey("requests_per_s") && r.windowS != null && r.windowS > 0) {
                    r.metric("requests_per_s", r.completed / r.windowS);
                    r.notes.add("requests_per_s = completed / duration (this SGLang version does not write "
                            + "request_throughput)");
                }
            }
            r.notes.add("SGLang's itl is the pooled gap between chunks, like vLLM's: equal to Headroom's itl only with "
                    + "one token "
                    + "per chunk");
            if (rate != null && rate.isInfinite() && conc == null)
                r.notes.add("request_rate Infinity: every request sent at once");
            out.add(r);
        }
        for (int i = 0; i < out.size(); i++) out.get(i).label = String.format("%02d-%s", i + 1, out.get(i).label);
        return out;
    }
}
