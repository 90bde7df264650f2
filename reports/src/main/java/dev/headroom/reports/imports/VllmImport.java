package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * vLLM {@code benchmark_serving.py} / {@code vllm bench serve --save-result} JSON (one object), and a {@code vllm bench
 * sweep} summary (a list of them). Keys {@code mean|median|std|p95|p99_{ttft,tpot,itl,e2el}_ms}.
 */
final class VllmImport {
    private VllmImport() {}

    static boolean recognises(JsonNode root) {
        JsonNode o = root.isArray() && !root.isEmpty() ? root.get(0) : root;
        return o.isObject()
                && o.has("mean_ttft_ms")
                && (o.has("model_id") || o.has("backend"))
                && !o.has("dataset_name");
    }

    static List<Imported> read(Path file, JsonNode root) {
        List<Imported> out = new ArrayList<>();
        if (root.isArray()) {
            for (JsonNode o : root) out.add(one(file, o));
        } else {
            out.add(one(file, root));
        }
        return out;
    }

    private static Imported one(Path file, JsonNode o) {
        Imported r = new Imported(
                "vllm", o.has("vllm_version") ? o.path("vllm_version").asText() : "not recorded", file.toString());
        r.model = o.path("model_id").asText(null);
        r.api = o.path("endpoint_type").asText(o.path("backend").asText(null));
        Double rate = Json.num(o.path("request_rate"));
        Double maxConc = Json.num(o.path("max_concurrency"));
        Double burst = Json.num(o.path("burstiness"));
        if (rate != null && rate.isInfinite() && maxConc != null) {
            // Everything sent at once, at most N in flight: N users in a closed loop.
            r.loadMode = "closed";
            r.concurrency = maxConc;
        } else if (rate != null) {
            r.loadMode = "open";
            r.rate = rate;
            r.arrival = burst == null || burst == 1.0 ? "poisson" : "gamma(burstiness " + burst + ")";
            r.concurrency = maxConc;
        }
        r.label = r.loadMode == null
                ? ""
                : r.loadMode.equals("closed") ? "concurrency=" + fmt(maxConc) : "rate=" + fmt(rate);
        if (o.has("run_number")) r.label += "-run" + o.path("run_number").asText();
        r.windowS = Json.num(o.path("duration"));
        r.completed = Json.count(o.path("completed"));
        r.failed = Json.count(o.path("failed"));
        for (String[] m :
                new String[][] {{"ttft", "ttft_ms"}, {"tpot", "tpot_ms"}, {"itl", "itl_ms"}, {"e2el", "e2e_ms"}}) {
            r.stat(m[1], "mean", Json.num(o.path("mean_" + m[0] + "_ms")));
            r.stat(m[1], "p50", Json.num(o.path("median_" + m[0] + "_ms")));
            for (String p : new String[] {"p90", "p95", "p99", "p99.9"}) {
                r.stat(m[1], p.replace(".", ""), Json.num(o.path(p + "_" + m[0] + "_ms")));
            }
        }
        r.metric("requests_per_s", Json.num(o.path("request_throughput")));
        r.metric("output_tokens_per_s", Json.num(o.path("output_throughput")));
        r.metric("total_tokens_per_s", Json.num(o.path("total_token_throughput")));
        Double goodput = Json.num(o.has("request_goodput") ? o.path("request_goodput") : o.path("request_goodput:"));
        r.metric("goodput_requests_per_s", goodput);
        if (r.completed != null && r.completed > 0) {
            Double in = Json.num(o.path("total_input_tokens")), out = Json.num(o.path("total_output_tokens"));
            r.stat("isl", "mean", in == null ? null : in / r.completed);
            r.stat("osl", "mean", out == null ? null : out / r.completed);
        }
        if (r.completed != null && r.failed != null && r.completed + r.failed > 0) {
            r.metric("error_rate", (double) r.failed / (r.completed + r.failed));
        }
        r.notes.add("vLLM's itl is the pooled gap between consecutive chunks, not divided by the tokens in a chunk; it "
                + "equals Headroom's itl only when every chunk carries one token");
        r.notes.add("vLLM's tpot is (e2e - ttft) / (osl - 1) per request, as Headroom's tpot");
        if (o.has("request_goodput:"))
            r.notes.add("the file spells request_goodput with a trailing colon (an upstream typo)");
        return r;
    }

    static String fmt(Double v) {
        if (v == null) return "?";
        if (v.isInfinite()) return "inf";
        return v == Math.rint(v) ? String.valueOf(v.longValue()) : String.valueOf(v);
    }
}
