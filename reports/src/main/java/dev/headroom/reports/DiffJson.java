package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.RunDiff;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code diff.json}, schema {@value #SCHEMA}: two runs compared ({@link RunDiff}), read back as written; its CSV (a
 * row per comparison) and its console table.
 */
public final class DiffJson {
    public static final String SCHEMA = "headroom.diff/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DiffJson() {}

    public static String write(RunDiff d, String toolVersion, String createdAt) {
        ObjectNode root = JsonHeader.root(SCHEMA, toolVersion);
        root.put("created_at", createdAt);
        root.put("kind", d.kind());
        root.put("a", d.a());
        root.put("b", d.b());
        ArrayNode diffs = root.putArray("workload_differences");
        d.differences().forEach(diffs::add);
        ObjectNode noise = root.putObject("noise");
        noise.put("method", d.resamples() > 0 ? "moving-block bootstrap over each run's requests" : "search intervals");
        noise.put("resamples", d.resamples());
        noise.put("seed", d.seed());
        noise.put("threshold", d.noiseThreshold());
        noise.put("interval", "95 % simultaneous per load point (each row at 1 - 0.05/m, m the point's rows)");
        ArrayNode rows = root.putArray("rows");
        for (RunDiff.Row r : d.rows()) {
            ObjectNode o = rows.addObject();
            o.put("point", r.point());
            o.put("metric", r.metric());
            o.put("stat", r.stat());
            o.put("unit", r.unit());
            o.put("better", r.better().name().toLowerCase(Locale.ROOT));
            JsonNumbers.exact(o, "a", r.valueA());
            JsonNumbers.exact(o, "b", r.valueB());
            o.put("change_kind", r.relative() ? "relative" : "absolute");
            JsonNumbers.exact(o, "change", r.change());
            JsonNumbers.exact(o, "change_low", r.low());
            JsonNumbers.exact(o, "change_high", r.high());
            o.put("verdict", r.verdict().wireName());
        }
        return root.toPrettyString() + "\n";
    }

    /** A diff.json read back. */
    public static RunDiff read(Path file) {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(file + ": not a JSON diff (" + e.getMessage() + ")");
        }
        if (!SCHEMA.equals(root.path("schema").asText())) {
            throw new BadInputException(
                    file + ": schema '" + root.path("schema").asText() + "', not " + SCHEMA);
        }
        List<String> differences = new ArrayList<>();
        root.path("workload_differences").forEach(n -> differences.add(n.asText()));
        List<RunDiff.Row> rows = new ArrayList<>();
        for (JsonNode o : root.path("rows")) {
            rows.add(new RunDiff.Row(
                    o.path("point").asText(),
                    o.path("metric").asText(),
                    o.path("stat").asText(),
                    o.path("unit").asText(),
                    RunDiff.Better.valueOf(o.path("better").asText().toUpperCase(Locale.ROOT)),
                    JsonNumbers.num(o.path("a")),
                    JsonNumbers.num(o.path("b")),
                    o.path("change_kind").asText().equals("relative"),
                    JsonNumbers.num(o.path("change")),
                    JsonNumbers.num(o.path("change_low")),
                    JsonNumbers.num(o.path("change_high")),
                    RunDiff.Verdict.valueOf(o.path("verdict").asText().toUpperCase(Locale.ROOT))));
        }
        return new RunDiff(
                root.path("kind").asText(),
                root.path("a").asText(),
                root.path("b").asText(),
                differences,
                root.path("noise").path("resamples").asInt(),
                root.path("noise").path("seed").asLong(),
                root.path("noise").path("threshold").asDouble(0),
                rows);
    }

    /** A row per comparison. */
    public static String csv(RunDiff d) {
        StringBuilder b =
                new StringBuilder("point,metric,stat,unit,a,b,change_kind,change,change_low,change_high,verdict\n");
        for (RunDiff.Row r : d.rows()) {
            b.append(String.join(
                            ",",
                            ParetoJson.quote(r.point()),
                            r.metric(),
                            r.stat(),
                            r.unit(),
                            num(r.valueA()),
                            num(r.valueB()),
                            r.relative() ? "relative" : "absolute",
                            num(r.change()),
                            num(r.low()),
                            num(r.high()),
                            r.verdict().wireName()))
                    .append('\n');
        }
        return b.toString();
    }

    /** The console table: a line per comparison, the change with its interval, beyond-noise changes marked. */
    public static String table(RunDiff d) {
        StringBuilder b = new StringBuilder();
        b.append("diff of two ")
                .append(d.kind())
                .append(" runs: B = ")
                .append(d.b())
                .append(" against A = ");
        b.append(d.a()).append('\n');
        for (String w : d.differences())
            b.append("workloads differ (allowed): ").append(w).append('\n');
        b.append(String.format(
                Locale.ROOT,
                "%-22s %-22s %-5s %12s %12s %10s  %-21s %s%n",
                "point",
                "metric",
                "stat",
                "A",
                "B",
                "change",
                "95% interval",
                "verdict"));
        for (RunDiff.Row r : d.rows()) {
            b.append(String.format(
                    Locale.ROOT,
                    "%-22s %-22s %-5s %12s %12s %10s  %-21s %s%n",
                    r.point(),
                    r.metric(),
                    r.stat(),
                    value(r.valueA(), r.unit()),
                    value(r.valueB(), r.unit()),
                    change(r.change(), r),
                    "[" + change(r.low(), r) + ", " + change(r.high(), r) + "]",
                    r.verdict() == RunDiff.Verdict.SAME
                            ? "within noise"
                            : r.verdict().wireName()));
        }
        long worse = d.count(RunDiff.Verdict.WORSE);
        long better = d.count(RunDiff.Verdict.BETTER);
        b.append(String.format(
                Locale.ROOT,
                "%d of %d comparisons beyond noise: %d worse, %d better (intervals 95%% simultaneous per point, %s; "
                        + "relative changes within ±%s are noise)%n",
                worse + better,
                d.rows().size(),
                worse,
                better,
                d.resamples() > 0 ? d.resamples() + " bootstrap resamples" : "the searches' own intervals",
                CsvNumbers.cell(d.noiseThreshold() * 100) + " %"));
        return b.toString();
    }

    /** A value in its unit: ms, tok/s, req/s, users, or a fraction (an error rate) shown as %. */
    public static String value(double v, String unit) {
        if (Double.isNaN(v)) return "-";
        if (unit.equals("fraction")) return String.format(Locale.ROOT, "%.2f %%", v * 100);
        return String.format(Locale.ROOT, v >= 100 ? "%.1f %s" : "%.3g %s", v, unit);
    }

    /** A change: relative as a signed percentage, absolute (an error rate's) in percentage points. */
    public static String change(double c, RunDiff.Row r) {
        if (Double.isNaN(c)) return "-";
        return r.relative()
                ? String.format(Locale.ROOT, "%+.1f%%", c * 100)
                : String.format(Locale.ROOT, "%+.2f pp", c * 100);
    }

    private static String num(double v) {
        return CsvNumbers.cell(v);
    }
}
