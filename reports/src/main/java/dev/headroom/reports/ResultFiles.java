package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
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

    /** A probe's summary.json as capacity needs it. */
    public static MeasuredPoint probe(Path summaryJson) {
        return point(read(summaryJson));
    }

    /** A sweep's points, in the order they ran. */
    public static List<MeasuredPoint> sweep(Path sweepJson) {
        List<MeasuredPoint> out = new ArrayList<>();
        for (JsonNode p : read(sweepJson).path("points")) out.add(point(p));
        return out;
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
                if (Files.isRegularFile(s)) found = probe(s);
            }
            return found;
        };
    }

    private static MeasuredPoint point(JsonNode n) {
        return new MeasuredPoint(
                n.at("/load/mode").asText().equals("closed"),
                !n.path("slo").isEmpty(),
                n.path("slo_pass").asBoolean(),
                num(n.at("/metrics/requests_per_s")),
                num(n.at("/metrics/ttft_ms/mean")),
                num(n.at("/metrics/e2e_ms/mean")));
    }

    private static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }
}
