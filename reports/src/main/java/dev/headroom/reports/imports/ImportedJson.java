package dev.headroom.reports.imports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.Slo;
import java.util.List;
import java.util.Map;

/**
 * An imported benchmark as {@code summary.json} ({@code headroom.probe/v1}, the same keys as a Headroom probe) plus
 * {@code source{tool, version, file, notes, metrics}}; what the source did not measure is absent, and SLOs given at
 * import are checked on the source's own statistics.
 */
public final class ImportedJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> STATS = List.of("mean", "min", "p50", "p90", "p95", "p99", "p999", "max");

    private ImportedJson() {}

    public static ObjectNode tree(Imported r, List<Slo> slos, String toolVersion) {
        ObjectNode root = header("headroom.probe/v1", toolVersion);
        ObjectNode source = root.putObject("source");
        source.put("tool", r.tool);
        source.put("version", r.toolVersion);
        source.put("file", r.file);
        source.put("benchmark", r.label);
        ArrayNode notes = source.putArray("notes");
        r.notes.forEach(notes::add);
        ObjectNode raw = source.putObject("metrics");
        r.sourceMetrics.forEach((k, v) -> {
            if (v instanceof Double d && Double.isFinite(d)) raw.put(k, d);
            else if (v != null && !(v instanceof Double)) raw.put(k, v.toString());
        });
        ObjectNode target = root.putObject("target");
        if (r.url != null) target.put("url", r.url);
        if (r.model != null) target.put("model", r.model);
        if (r.api != null) target.put("api", r.api);
        ObjectNode load = root.putObject("load");
        if (r.loadMode != null) load.put("mode", r.loadMode);
        if (r.concurrency != null && !r.concurrency.isInfinite()) load.put("concurrency", r.concurrency);
        if (r.rate != null) {
            if (r.rate.isInfinite()) load.put("rate", "inf");
            else load.put("rate", r.rate);
        }
        if (r.arrival != null) load.put("arrival", r.arrival);
        if (r.windowS != null) root.put("window_s", r.windowS);
        ObjectNode counts = root.putObject("counts");
        if (r.completed != null) counts.put("completed", r.completed);
        if (r.failed != null) counts.put("failed", r.failed);
        if (r.incomplete != null) counts.put("incomplete", r.incomplete);
        ObjectNode metrics = root.putObject("metrics");
        for (String m : List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms", "isl", "osl")) {
            Map<String, Double> d = r.distributions.get(m);
            if (d == null) continue;
            ObjectNode o = metrics.putObject(m);
            for (String s : STATS) if (d.containsKey(s)) o.put(s, d.get(s));
        }
        r.metrics.forEach(metrics::put);
        ArrayNode sloArray = root.putArray("slo");
        boolean pass = true;
        for (Slo slo : slos) {
            double observed = observed(r, slo);
            boolean ok = slo.met(observed);
            ObjectNode o = sloArray.addObject();
            o.put("metric", slo.metric().wireName());
            if (slo.stat() == null) o.putNull("stat");
            else o.put("stat", slo.stat().text());
            o.put("op", slo.inclusive() ? "<=" : "<");
            o.put("threshold", slo.threshold());
            o.put("observed", observed);
            o.put("pass", ok);
            pass &= ok;
        }
        if (slos.isEmpty()) root.putNull("slo_pass");
        else root.put("slo_pass", pass);
        return root;
    }

    private static ObjectNode header(String schema, String toolVersion) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", schema);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", "headroom");
        tool.put("version", toolVersion);
        return root;
    }

    /** The source's own statistic an SLO names; an error when the source did not measure it. */
    static double observed(Imported r, Slo slo) {
        if (slo.isRate()) {
            Double e = r.metrics.get("error_rate");
            if (e == null)
                throw new BadInputException(
                        "{slo} " + slo.text() + ": " + r.file + " has no error count to check it on");
            return e;
        }
        Map<String, Double> d =
                r.distributions.get(slo.metric().distributionKey().key());
        String stat = slo.stat().text().replace(".", "");
        if (d == null || !d.containsKey(stat)) {
            throw new BadInputException("{slo} " + slo.text() + ": " + r.file + " (" + r.tool + ") has no "
                    + slo.metric().wireName() + " " + slo.stat().text() + (d == null ? "" : "; it has " + d.keySet())
                    + " — Headroom does not invent it");
        }
        return d.get(stat);
    }

    /** A result tree as the indented JSON text written to disk. */
    public static String text(ObjectNode tree) {
        try {
            return MAPPER.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code sweep.json} over several imported benchmarks of one file (GuideLLM, SGLang runs, a vLLM sweep). */
    public static String sweep(List<ObjectNode> points, List<String> dirs, String toolVersion) {
        ObjectNode root = header("headroom.sweep/v1", toolVersion);
        ArrayNode rows = root.putArray("points");
        for (int i = 0; i < points.size(); i++) {
            ObjectNode p = points.get(i), row = rows.addObject();
            row.put("index", i + 1);
            row.put("dir", dirs.get(i));
            for (String k : List.of("load", "window_s", "counts", "metrics", "slo", "slo_pass", "source")) {
                if (p.has(k)) row.set(k, p.get(k));
            }
        }
        ObjectNode knee = root.putObject("knee");
        knee.put("rule", "not computed for imported results");
        knee.putNull("index");
        return text(root);
    }
}
