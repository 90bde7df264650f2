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
import java.util.function.DoubleFunction;

/**
 * Typed readers of Headroom's own result files, for the plan's inputs and the report: which kind a file is, and what
 * a probe's summary.json, a sweep's points and a search's probes say. Errors name the file.
 */
public final class ResultFiles {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The result kinds, by their {@code schema}. */
    public enum Kind {
        SEARCH("headroom.search/v1", "search.json"),
        SWEEP("headroom.sweep/v1", "sweep.json"),
        PROBE("headroom.probe/v1", "summary.json");

        final String schema;
        final String fileName;

        Kind(String schema, String fileName) {
            this.schema = schema;
            this.fileName = fileName;
        }
    }

    /** A result file and its kind. */
    public record Result(Path file, Kind kind) {}

    private ResultFiles() {}

    /** {@code path} as a result: the file itself, or the search.json, sweep.json or summary.json in its directory. */
    public static Result open(Path path) {
        Path file = path;
        if (Files.isDirectory(path)) {
            file = List.of(Kind.values()).stream()
                    .map(k -> path.resolve(k.fileName))
                    .filter(Files::isRegularFile)
                    .findFirst()
                    .orElseThrow(() ->
                            new BadInputException(path + " holds no search.json, sweep.json or " + "summary.json"));
        }
        String schema = read(file).path("schema").asText();
        for (Kind k : Kind.values()) if (k.schema.equals(schema)) return new Result(file, k);
        throw new BadInputException(file + ": schema '" + schema + "' is not a Headroom search, sweep or probe result");
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
