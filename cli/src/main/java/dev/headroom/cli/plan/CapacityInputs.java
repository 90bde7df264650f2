package dev.headroom.cli.plan;

import dev.headroom.model.BadInputException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.plan.Capacity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Capacities from Headroom results ({@code CLASS@OPTION=search.json|summary.json|sweep.json|DIR}) or a YAML list of
 * numbers from elsewhere. A replica's capacity is its max request rate under the SLO: a max-rate search gives it
 * directly; a max-concurrency result is turned into a rate by Little's law (concurrency ÷ mean e2e at that load),
 * and the capacity is marked derived.
 */
public final class CapacityInputs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CapacityInputs() {}

    /** Parses every {@code --capacity} value. */
    public static List<Capacity> parse(List<String> specs) {
        List<Capacity> out = new ArrayList<>();
        for (String spec : specs) {
            int at = spec.indexOf('@'), eq = spec.indexOf('=');
            if (at > 0 && eq > at) {
                String cls = spec.substring(0, at), option = spec.substring(at + 1, eq);
                out.add(fromResult(cls, option, Path.of(spec.substring(eq + 1))));
            } else if (at < 0 && eq < 0 && (spec.endsWith(".yaml") || spec.endsWith(".yml"))) {
                out.addAll(fromYaml(Path.of(spec)));
            } else {
                throw new BadInputException("bad --capacity '" + spec + "': give CLASS@OPTION=RESULT (a search.json, "
                        + "summary.json, sweep.json or its directory) or a capacities YAML file");
            }
        }
        for (int i = 0; i < out.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (out.get(i).option().equals(out.get(j).option()) && out.get(i).workloadClass().equals(out.get(j).workloadClass())) {
                    throw new BadInputException("--capacity: " + out.get(i).workloadClass() + "@" + out.get(i).option()
                            + " is given twice (" + out.get(j).source() + " and " + out.get(i).source() + ")");
                }
            }
        }
        return out;
    }

    static List<Capacity> fromYaml(Path file) {
        Yaml.Node root = Yaml.readAny(file);
        List<Capacity> out = new ArrayList<>();
        // A plain list of capacities, or the list under `capacities:`.
        for (Yaml.Node c : root.json.isArray() ? root.items() : root.list("capacities")) {
            String option = c.text("option"), cls = c.text("class");
            try {
                if (c.has("max_rps")) {
                    double rps = c.number("max_rps");
                    out.add(new Capacity(option, cls, rps, c.number("ci_low", rps), c.number("ci_high", rps), false,
                            c.number("prefill_share", Double.NaN), file.toString()));
                } else if (c.has("max_concurrency")) {
                    double e2e = c.number("mean_e2e_s");
                    double rps = Capacity.littlesLaw(c.number("max_concurrency"), e2e);
                    double lo = c.has("ci_low") ? Capacity.littlesLaw(c.number("ci_low"), e2e) : rps;
                    double hi = c.has("ci_high") ? Capacity.littlesLaw(c.number("ci_high"), e2e) : rps;
                    out.add(new Capacity(option, cls, rps, lo, hi, true, c.number("prefill_share", Double.NaN), file.toString()));
                } else {
                    throw c.error("needs max_rps (with ci_low, ci_high) or max_concurrency with mean_e2e_s");
                }
            } catch (BadInputException e) {
                if (e.getMessage().startsWith(file.toString())) throw e;
                throw c.wrap(e);
            }
        }
        return out;
    }

    static Capacity fromResult(String cls, String option, Path path) {
        Path file = path;
        if (Files.isDirectory(path)) {
            file = List.of("search.json", "sweep.json", "summary.json").stream().map(path::resolve).filter(Files::isRegularFile)
                    .findFirst().orElseThrow(() -> new BadInputException("--capacity " + cls + "@" + option + ": " + path
                            + " holds no search.json, sweep.json or summary.json"));
        }
        JsonNode root = read(file);
        String schema = root.path("schema").asText();
        String where = "--capacity " + cls + "@" + option + "=" + file;
        return switch (schema) {
            case "headroom.search/v1" -> fromSearch(cls, option, file, root, where);
            case "headroom.sweep/v1" -> fromSweep(cls, option, file, root, where);
            case "headroom.probe/v1" -> fromProbe(cls, option, file, root, where);
            default -> throw new BadInputException(where + ": schema '" + schema
                    + "' is not a Headroom search, sweep or probe result");
        };
    }

    private static Capacity fromSearch(String cls, String option, Path file, JsonNode root, String where) {
        String objective = root.path("objective").asText();
        JsonNode r = root.path("result");
        double value = num(r.path("value")), lo = num(r.path("ci_low")), hi = num(r.path("ci_high"));
        if (Double.isNaN(value)) throw new BadInputException(where + ": the search found no passing load (stop: "
                + r.path("stop_reason").asText() + "); there is no capacity to plan with");
        if (Double.isNaN(hi)) throw new BadInputException(where + ": the boundary lies above the searched range (> "
                + num(root.path("range").path("max")) + "); search with a larger --max to know the capacity");
        switch (objective) {
            case "max-rate" -> {
                JsonNode at = probeSummary(file, root, value);
                return new Capacity(option, cls, value, Math.min(lo, value), Math.max(hi, value), false,
                        at == null ? Double.NaN : prefillShare(at), file.toString());
            }
            case "max-concurrency" -> {
                double rps = littleAt(file, root, value, where);
                double rLo = littleAt(file, root, lo, where), rHi = littleAt(file, root, hi, where);
                return new Capacity(option, cls, rps, Math.min(Math.min(rLo, rHi), rps), Math.max(Math.max(rLo, rHi), rps), true,
                        prefillShare(probeSummary(file, root, value)), file.toString());
            }
            default -> throw new BadInputException(where + ": a " + objective + " search does not measure capacity under "
                    + "the SLO; use a max-rate or max-concurrency search");
        }
    }

    /** Little's law at a load of the search: that load ÷ the mean e2e its probe measured. */
    private static double littleAt(Path file, JsonNode root, double load, String where) {
        JsonNode s = probeSummary(file, root, load);
        if (s == null) throw new BadInputException(where + ": no probe summary at concurrency " + load
                + " to take its mean e2e from (the probe directories must sit beside search.json)");
        return Capacity.littlesLaw(load, s.at("/metrics/e2e_ms/mean").asDouble() / 1000);
    }

    /** The summary.json of the (last) probe the search ran at {@code load}, or null. */
    private static JsonNode probeSummary(Path file, JsonNode root, double load) {
        JsonNode found = null;
        for (JsonNode p : root.path("probes")) {
            if (Math.abs(p.path("load").asDouble() - load) > 1e-9 * Math.max(1, load)) continue;
            Path s = file.resolveSibling(p.path("dir").asText()).resolve("summary.json");
            if (Files.isRegularFile(s)) found = read(s);
        }
        return found;
    }

    private static Capacity fromSweep(String cls, String option, Path file, JsonNode root, String where) {
        JsonNode pass = null, fail = null;
        for (JsonNode p : root.path("points")) {
            if (p.path("slo").isEmpty()) throw new BadInputException(where + ": the sweep was run without --slo; capacity "
                    + "is the largest load that meets the SLO");
            if (p.path("slo_pass").asBoolean()) {
                if (fail == null) pass = p;
            } else if (fail == null) {
                fail = p;
            }
        }
        if (pass == null) throw new BadInputException(where + ": no point of the sweep meets its SLO");
        double rps = pass.at("/metrics/requests_per_s").asDouble();
        double hi = fail == null ? rps : Math.max(rps, fail.at("/metrics/requests_per_s").asDouble());
        boolean closed = pass.at("/load/mode").asText().equals("closed");
        return new Capacity(option, cls, rps, rps, hi, closed, prefillShare(pass), file.toString());
    }

    private static Capacity fromProbe(String cls, String option, Path file, JsonNode root, String where) {
        if (!root.path("slo_pass").asBoolean()) {
            throw new BadInputException(where + ": this probe does not meet its SLO (or had none); capacity needs a "
                    + "passing load — better, a search");
        }
        double rps = root.at("/metrics/requests_per_s").asDouble();
        // One passing probe is a lower bound on capacity: no interval above it is known.
        return new Capacity(option, cls, rps, rps, rps, root.at("/load/mode").asText().equals("closed"), prefillShare(root),
                file.toString());
    }

    /** Mean TTFT ÷ mean e2e: the share of a request's time before its first token. NaN without data. */
    private static double prefillShare(JsonNode summary) {
        if (summary == null) return Double.NaN;
        double ttft = num(summary.at("/metrics/ttft_ms/mean")), e2e = num(summary.at("/metrics/e2e_ms/mean"));
        return e2e > 0 && ttft >= 0 ? Math.min(1, ttft / e2e) : Double.NaN;
    }

    private static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }
}
