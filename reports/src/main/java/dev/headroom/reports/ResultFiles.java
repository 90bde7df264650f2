package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.SearchReport;
import dev.headroom.model.plan.MeasuredPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleFunction;
import java.util.stream.Collectors;

/**
 * Typed readers of Headroom's own result files, for the plan's inputs and the report: which kind a file is, and what
 * a probe's summary.json, a sweep's points and a search's probes say. Errors name the file.
 */
public final class ResultFiles {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The result kinds, by their {@code schema} and file name, in the order a run directory is recognised. */
    public enum Kind {
        DIFF(DiffJson.SCHEMA, "diff.json"),
        CONFIGURE(ConfigureJson.SCHEMA, "configure.json"),
        PARETO(ParetoJson.SCHEMA, "pareto.json"),
        FIDELITY(FidelityJson.SCHEMA, "fidelity.json"),
        COMPARE(PlanJson.COMPARE_SCHEMA, "compare.json"),
        PLAN(PlanJson.SCHEMA, "plan.json"),
        SEARCH(SearchJson.SCHEMA, "search.json"),
        SWEEP(SweepJson.SCHEMA, "sweep.json"),
        PROBE(SummaryJson.SCHEMA, "summary.json");

        final String schema;
        final String fileName;

        Kind(String schema, String fileName) {
            this.schema = schema;
            this.fileName = fileName;
        }

        public String fileName() {
            return fileName;
        }

        /** The {@code schema} its files carry. */
        public String schema() {
            return schema;
        }
    }

    /** A result file and its kind. */
    public record Result(Path file, Kind kind) {}

    private ResultFiles() {}

    /** The result a run directory holds, by the first of the kinds' files in it; null when it holds none. */
    public static Result find(Path dir) {
        for (Kind k : Kind.values()) {
            Path f = dir.resolve(k.fileName);
            if (Files.isRegularFile(f)) return new Result(f, k);
        }
        return null;
    }

    /**
     * {@code path} as one of the {@code accepted} kinds: a result file (its kind by its schema) or a run directory
     * holding one.
     */
    public static Result open(Path path, Set<Kind> accepted) {
        String names = accepted.stream().map(Kind::fileName).collect(Collectors.joining(", "));
        Path file = path;
        if (Files.isDirectory(path)) {
            file = accepted.stream()
                    .map(k -> path.resolve(k.fileName))
                    .filter(Files::isRegularFile)
                    .findFirst()
                    .orElseThrow(() -> new BadInputException(path + " holds none of " + names));
        }
        String schema = read(file).path("schema").asText();
        for (Kind k : accepted) if (k.schema.equals(schema)) return new Result(file, k);
        throw new BadInputException(file + ": schema '" + schema + "' is not the schema of a Headroom " + names);
    }

    /** Where an imported result came from (absent from Headroom's own results). */
    public record Source(String tool, String version, String file, String benchmark, List<String> notes) {}

    /**
     * A probe's summary.json: what it measured and, for an imported benchmark, its source.
     *
     * @param loadText the load as the file states it, for a load Headroom does not run (an imported "all at once")
     */
    public record Probe(ProbeReport report, Source source, String loadText) {}

    /** A sweep's sweep.json: its points in the order they ran, each with its directory, and the knee. */
    public record Sweep(List<Probe> points, List<String> dirs, Knee knee) {}

    /** The knee of a sweep: its 1-based point index, or null when there is none, and the rule that found it. */
    public record Knee(Integer index, String load, String rule) {}

    /** A probe's summary.json. */
    public static Probe probe(Path summaryJson) {
        return probe(read(summaryJson), summaryJson);
    }

    /** A sweep's sweep.json, every point read as its summary.json would be. */
    public static Sweep sweep(Path sweepJson) {
        JsonNode root = read(sweepJson);
        List<Probe> points = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (JsonNode row : root.path("points")) {
            ObjectNode p = row.deepCopy();
            for (String shared : List.of("tool", "started_at", "target", "seed")) {
                if (root.has(shared) && !p.has(shared)) p.set(shared, root.get(shared));
            }
            ObjectNode workload = root.path("workload").isObject()
                    ? ((ObjectNode) root.get("workload")).deepCopy()
                    : JSON.createObjectNode();
            workload.set("prompt_salt", row.path("prompt_salt"));
            p.set("workload", workload);
            p.putObject("client").set("client_bound", row.path("client_bound"));
            points.add(probe(p, sweepJson));
            dirs.add(row.path("dir").asText(null));
        }
        JsonNode k = root.path("knee");
        Knee knee = new Knee(
                k.path("index").isNumber() ? k.path("index").asInt() : null,
                k.path("load").asText(null),
                k.path("rule").asText(""));
        return new Sweep(points, dirs, knee);
    }

    /** A probe as capacity needs it. */
    public static MeasuredPoint point(Probe probe) {
        ProbeReport r = probe.report();
        return new MeasuredPoint(
                r.run().load() instanceof LoadModel.Closed,
                !r.summary().slo().isEmpty(),
                r.summary().sloPass(),
                r.summary().requestsPerS(),
                r.summary().distribution(Metric.TTFT_MS).mean(),
                r.summary().distribution(Metric.E2E_MS).mean(),
                r.sessions() != null,
                r.sessions() == null || r.sessions().durationS().count() == 0
                        ? Double.NaN
                        : r.sessions().durationS().mean());
    }

    private static Probe probe(JsonNode n, Path file) {
        ProbeReport report;
        try {
            report = SummaryJson.read(n);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(file + ": " + e.getMessage(), e);
        }
        Source source = null;
        if (n.has("source")) {
            JsonNode s = n.path("source");
            List<String> notes = new ArrayList<>();
            s.path("notes").forEach(x -> notes.add(x.asText()));
            source = new Source(
                    s.path("tool").asText(),
                    s.path("version").asText(),
                    s.path("file").asText(),
                    s.path("benchmark").asText(),
                    notes);
        }
        JsonNode load = n.path("load");
        String loadText = report.run().load() != null || !load.has("mode")
                ? null
                : load.path("mode").asText() + " loop"
                        + (load.has("rate") ? ", " + load.path("rate").asText() + " req/s" : "")
                        + (load.has("concurrency")
                                ? ", " + load.path("concurrency").asText() + " users"
                                : "");
        return new Probe(report, source, loadText);
    }

    public static SearchReport search(Path searchJson) {
        return SearchJson.read(searchJson);
    }

    /** The last probe a search ran at a load, from the probe directories beside its search.json; null when absent. */
    public static DoubleFunction<MeasuredPoint> searchProbes(Path searchJson, SearchReport search) {
        return load -> {
            MeasuredPoint found = null;
            for (SearchReport.Probe p : search.probes()) {
                if (Math.abs(p.load() - load) > 1e-9 * Math.max(1, load) || p.dir() == null) continue;
                Path s = searchJson.resolveSibling(p.dir()).resolve("summary.json");
                if (Files.isRegularFile(s)) found = point(probe(s));
            }
            return found;
        };
    }

    private static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
