package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.Slo;
import dev.headroom.reports.RunFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Imported results as Headroom's own: one result is a probe's summary.json; several are a sweep (sweep.json and a
 * directory per point). Every result is built before anything is written, so a bad SLO leaves no half an import.
 */
public final class ImportRun {
    private final List<Imported> results;
    private final List<ObjectNode> trees = new ArrayList<>();
    private final String toolVersion;

    public ImportRun(List<Imported> results, List<Slo> slos, String toolVersion) {
        this.results = List.copyOf(results);
        this.toolVersion = toolVersion;
        for (Imported r : results) trees.add(ImportedJson.tree(r, slos, toolVersion));
    }

    /** Writes the run directory; returns its main file's text (summary.json or sweep.json). */
    public String write(Path dir) {
        if (results.size() == 1) {
            String json = ImportedJson.text(trees.getFirst());
            RunFiles.write(dir.resolve("summary.json"), json);
            return json;
        }
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            String name = String.format(
                            Locale.ROOT,
                            "%02d-%s-%s",
                            i + 1,
                            results.get(i).tool(),
                            results.get(i).label().replaceAll("[^A-Za-z0-9.=]+", "-"))
                    .replaceAll("-+$", "");
            Path d = dir.resolve(name);
            RunFiles.createDirectories(d);
            RunFiles.write(d.resolve("summary.json"), ImportedJson.text(trees.get(i)));
            dirs.add(name);
        }
        String json = ImportedJson.sweep(trees, dirs, toolVersion);
        RunFiles.write(dir.resolve("sweep.json"), json);
        return json;
    }

    /** One console line per imported result, then the first result's notes. */
    public String table() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < results.size(); i++) {
            Imported r = results.get(i);
            ObjectNode t = trees.get(i);
            b.append(String.format(
                    Locale.ROOT,
                    "%-10s %-28s load %-22s completed %-6s ttft p50 %-11s e2e p50 %-11s %-13s %-16s%s%n",
                    r.tool(),
                    r.label(),
                    t.path("load").toString().replace("\"", ""),
                    t.at("/counts/completed").asText("-"),
                    number(t, "ttft_ms/p50", "%.1f ms"),
                    number(t, "e2e_ms/p50", "%.1f ms"),
                    number(t, "requests_per_s", "%.2f req/s"),
                    number(t, "output_tokens_per_s", "%.2f out tok/s"),
                    t.path("slo_pass").isBoolean()
                            ? (t.path("slo_pass").asBoolean() ? "  SLO pass" : "  SLO FAIL")
                            : ""));
        }
        if (!results.isEmpty())
            results.getFirst().notes().forEach(n -> b.append("note: ").append(n).append('\n'));
        return b.toString();
    }

    private static String number(ObjectNode t, String metric, String format) {
        var n = t.at("/metrics/" + metric);
        return n.isNumber() ? String.format(Locale.ROOT, format, n.asDouble()) : "-";
    }
}
