package dev.headroom.reports;

import static dev.headroom.reports.JsonNumbers.num;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.BoundaryType;
import dev.headroom.model.LoadModel;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchDrift;
import dev.headroom.model.SearchProgress;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.model.StopReason;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code search.json}, schema {@value #SCHEMA}. */
public final class SearchJson {
    public static final String SCHEMA = "headroom.search/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SearchJson() {}

    /**
     * Reads back what {@link #write} wrote: the settings, every probe, the curves, the goodput answer and the probe
     * shape (a resumed search recomputes fits and the result). The error names the file and what is wrong with it.
     */
    public static SearchReport read(Path file) {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + ": " + e.getMessage());
        }
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            throw new BadInputException(file + " is not a search result (schema " + SCHEMA + ")");
        }
        var t = root.path("target");
        RunInfo run = new RunInfo(
                root.path("tool").path("version").asText(),
                root.path("started_at").asText(),
                t.path("url").asText(),
                t.path("model").asText(),
                t.path("api").asText(),
                t.path("simulator").isNull() ? null : t.path("simulator").asText(null),
                root.path("range").path("axis").asText().equals("rate")
                        ? new LoadModel.Open(1, new ArrivalProcess.Poisson())
                        : new LoadModel.Closed(1),
                0,
                0,
                root.path("workload").path("description").asText(),
                null,
                root.path("seed").asLong(),
                root.path("workload").path("prompt_salt").asText(null),
                null);
        if (root.path("workload").has("sessions")) {
            run = run.carrying(SessionsJson.readSpec(root.path("workload").path("sessions")));
        }
        List<Slo> slos = new ArrayList<>();
        root.path("slo").forEach(n -> slos.add(Slo.parse(n.asText())));
        List<SearchReport.Probe> probes = new ArrayList<>();
        for (var p : root.path("probes")) {
            Map<String, SearchReport.SloMargin> margins = new LinkedHashMap<>();
            p.path("margins")
                    .properties()
                    .forEach(e -> margins.put(
                            e.getKey(),
                            new SearchReport.SloMargin(
                                    num(e.getValue().path("value")),
                                    num(e.getValue().path("se")),
                                    e.getValue().path("n").asLong())));
            probes.add(new SearchReport.Probe(
                    p.path("index").asInt(),
                    num(p.path("load")),
                    margins,
                    p.path("verdict").asText().equals("pass"),
                    new SearchReport.Estimate(
                            num(p.path("goodput").path("value")),
                            num(p.path("goodput").path("se"))),
                    p.path("requests").asLong(),
                    num(p.path("duration_s")),
                    p.path("dir").asText(null),
                    num(p.path("e2e_mean_s")),
                    new SearchReport.Estimate(num(p.at("/tpot/mean_ms")), num(p.at("/tpot/se_ms"))),
                    new SearchReport.Batch(
                            num(p.at("/batch/running_streams")),
                            num(p.at("/batch/queue_room")),
                            num(p.at("/batch/fill_users")))));
        }
        var range = root.path("range");
        var result = root.path("result");
        return new SearchReport(
                run,
                root.path("objective").asText(),
                slos,
                result.path("simulated").asBoolean(),
                num(range.path("min")),
                num(range.path("max")),
                num(range.path("tolerance")),
                num(result.path("value")),
                num(result.path("ci_low")),
                num(result.path("ci_high")),
                result.path("binding_slo").asText(null),
                BoundaryType.parse(result.path("boundary_type").asText(null)),
                StopReason.parse(result.path("stop_reason").asText()),
                probes,
                curves(root.at("/curves/isotonic")),
                goodput(result.path("goodput"), root.at("/curves/gp")),
                num(root.path("probe_shape").path("ramp_s")),
                drift(result.path("drift")));
    }

    private static SearchDrift drift(JsonNode d) {
        if (!d.isObject()) return null;
        List<SearchDrift.Check> checks = new ArrayList<>();
        for (JsonNode c : d.path("checks")) {
            checks.add(new SearchDrift.Check(
                    c.path("probe").asInt(),
                    SearchDrift.Trigger.parse(c.path("trigger").asText()),
                    c.path("reference_probe").asInt(),
                    num(c.path("reference_load")),
                    c.path("statistic").asText(null),
                    num(c.path("change")),
                    num(c.path("z")),
                    c.path("drifted").asBoolean()));
        }
        return new SearchDrift(checks, num(d.path("bracket_low")), num(d.path("bracket_high")));
    }

    private static Map<String, List<SearchReport.CurvePoint>> curves(JsonNode isotonic) {
        Map<String, List<SearchReport.CurvePoint>> out = new LinkedHashMap<>();
        isotonic.properties().forEach(e -> {
            List<SearchReport.CurvePoint> pts = new ArrayList<>();
            e.getValue().forEach(q -> pts.add(new SearchReport.CurvePoint(num(q.path("load")), num(q.path("margin")))));
            out.put(e.getKey(), pts);
        });
        return out;
    }

    private static SearchReport.GoodputResult goodput(JsonNode g, JsonNode gp) {
        if (!g.isObject()) return null;
        List<SearchReport.PosteriorPoint> posterior = null;
        SearchReport.Kernel kernel = null;
        if (gp.isObject()) {
            posterior = new ArrayList<>();
            for (JsonNode q : gp.path("points")) {
                posterior.add(
                        new SearchReport.PosteriorPoint(num(q.path("load")), num(q.path("mean")), num(q.path("sd"))));
            }
            kernel = new SearchReport.Kernel(
                    num(gp.path("amplitude")), num(gp.path("length_scale_log_load")), num(gp.path("nugget")));
        }
        return new SearchReport.GoodputResult(
                g.path("unit").asText(),
                num(g.path("mean")),
                num(g.path("sd")),
                num(g.path("best_observed_load")),
                num(g.path("best_observed")),
                num(g.path("expected_improvement")),
                posterior,
                kernel,
                num(g.path("batch_cap")),
                g.path("batch_cap_source").isTextual()
                        ? g.path("batch_cap_source").asText()
                        : null);
    }

    public static String write(SearchReport s) {
        ObjectNode root = JsonHeader.root(SCHEMA, s.run().toolVersion());
        root.put("started_at", s.run().startedAt());
        root.put("objective", s.objective());
        ArrayNode slo = root.putArray("slo");
        s.slos().stream().map(Slo::text).forEach(slo::add);
        ObjectNode target = root.putObject("target");
        target.put("url", s.run().url());
        target.put("model", s.run().model());
        target.put("api", s.run().api());
        if (s.run().simulator() == null) target.putNull("simulator");
        else target.put("simulator", s.run().simulator());
        ObjectNode workload = root.putObject("workload");
        workload.put("description", s.run().workload());
        // The command's salt; each probe's prompts are made from it and the probe's number (its summary.json).
        if (s.run().promptSalt() != null) workload.put("prompt_salt", s.run().promptSalt());
        // A search over sessions: its loads are concurrent sessions or new sessions per second.
        if (s.run().sessions() != null)
            workload.set("sessions", SessionsJson.writeSpec(s.run().sessions()));
        root.put("seed", s.run().seed());
        ObjectNode range = root.putObject("range");
        JsonNumbers.put(range, "min", s.min(), 6);
        JsonNumbers.put(range, "max", s.max(), 6);
        JsonNumbers.put(range, "tolerance", s.tolerance(), 6);
        range.put("axis", s.run().load() instanceof LoadModel.Open ? "rate" : "concurrency");
        ObjectNode result = root.putObject("result");
        JsonNumbers.put(result, "value", s.value(), 6);
        JsonNumbers.put(result, "ci_low", s.ciLow(), 6);
        JsonNumbers.put(result, "ci_high", s.ciHigh(), 6);
        result.put("binding_slo", s.bindingSlo());
        if (s.boundaryType() == null) result.putNull("boundary_type");
        else result.put("boundary_type", s.boundaryType().wireName());
        result.put("stop_reason", s.stopReason().wireName());
        result.put("simulated", s.simulated());
        if (s.goodput() != null) {
            SearchReport.GoodputResult gr = s.goodput();
            ObjectNode g = result.putObject("goodput");
            g.put("unit", gr.unit());
            JsonNumbers.put(g, "mean", gr.mean(), 6);
            JsonNumbers.put(g, "sd", gr.sd(), 6);
            JsonNumbers.put(g, "best_observed_load", gr.bestObservedLoad(), 6);
            JsonNumbers.put(g, "best_observed", gr.bestObserved(), 6);
            JsonNumbers.put(g, "expected_improvement", gr.expectedImprovement(), 6);
            JsonNumbers.put(g, "batch_cap", gr.batchCap(), 6);
            if (gr.batchCapSource() == null) g.putNull("batch_cap_source");
            else g.put("batch_cap_source", gr.batchCapSource());
        }
        if (s.drift() != null) {
            SearchDrift d = s.drift();
            ObjectNode o = result.putObject("drift");
            o.put("detected", d.detected());
            JsonNumbers.put(o, "bracket_low", d.bracketLow(), 6);
            JsonNumbers.put(o, "bracket_high", d.bracketHigh(), 6);
            ArrayNode checks = o.putArray("checks");
            for (SearchDrift.Check c : d.checks()) {
                ObjectNode k = checks.addObject();
                k.put("probe", c.probe());
                k.put("trigger", c.trigger().wireName());
                k.put("reference_probe", c.referenceProbe());
                JsonNumbers.put(k, "reference_load", c.referenceLoad(), 6);
                k.put("statistic", c.statistic());
                JsonNumbers.exact(k, "change", c.change());
                JsonNumbers.exact(k, "z", c.z());
                k.put("drifted", c.drifted());
            }
        }
        ObjectNode shape = root.putObject("probe_shape");
        JsonNumbers.exact(shape, "ramp_s", s.rampSeconds());
        ArrayNode probes = root.putArray("probes");
        for (SearchReport.Probe p : s.probes()) {
            ObjectNode o = probes.addObject();
            o.put("index", p.index());
            JsonNumbers.put(o, "load", p.load(), 6);
            ObjectNode margins = o.putObject("margins");
            p.margins().forEach((k, v) -> {
                ObjectNode m = margins.putObject(k);
                JsonNumbers.exact(m, "value", v.value());
                JsonNumbers.exact(m, "se", v.se());
                m.put("n", v.samples());
            });
            o.put("verdict", p.pass() ? "pass" : "fail");
            ObjectNode g = o.putObject("goodput");
            JsonNumbers.exact(g, "value", p.goodput().value());
            JsonNumbers.exact(g, "se", p.goodput().se());
            o.put("requests", p.requests());
            JsonNumbers.put(o, "duration_s", p.seconds(), 3);
            JsonNumbers.exact(o, "e2e_mean_s", p.e2eMeanSeconds());
            ObjectNode tpot = o.putObject("tpot");
            JsonNumbers.exact(tpot, "mean_ms", p.tpot().value());
            JsonNumbers.exact(tpot, "se_ms", p.tpot().se());
            ObjectNode batch = o.putObject("batch");
            JsonNumbers.put(batch, "running_streams", p.batch().runningStreams(), 6);
            JsonNumbers.put(batch, "queue_room", p.batch().queueRoom(), 6);
            JsonNumbers.put(batch, "fill_users", p.batch().fillUsers(), 6);
            o.put("dir", p.dir());
        }
        ObjectNode curves = root.putObject("curves");
        ObjectNode iso = curves.putObject("isotonic");
        s.curves().forEach((k, pts) -> {
            ArrayNode a = iso.putArray(k);
            for (SearchReport.CurvePoint pt : pts) {
                ObjectNode q = a.addObject();
                JsonNumbers.put(q, "load", pt.load(), 6);
                JsonNumbers.put(q, "margin", pt.margin(), 6);
            }
        });
        if (s.goodput() != null && s.goodput().posterior() != null) {
            ObjectNode gp = curves.putObject("gp");
            SearchReport.Kernel h = s.goodput().kernel();
            JsonNumbers.put(gp, "amplitude", h.amplitude(), 6);
            JsonNumbers.put(gp, "length_scale_log_load", h.lengthScale(), 6);
            JsonNumbers.put(gp, "nugget", h.nugget(), 9);
            ArrayNode a = gp.putArray("points");
            for (SearchReport.PosteriorPoint pt : s.goodput().posterior()) {
                ObjectNode q = a.addObject();
                JsonNumbers.put(q, "load", pt.load(), 6);
                JsonNumbers.put(q, "mean", pt.mean(), 6);
                JsonNumbers.put(q, "sd", pt.sd(), 6);
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code search.csv}: one row per probe — index, load, verdict, goodput and every SLO's margin with its se. */
    public static String csv(SearchReport s) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (SearchReport.Probe p : s.probes()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("index", p.index());
            row.put("load", p.load());
            row.put("verdict", p.pass() ? "pass" : "fail");
            row.put("requests", p.requests());
            row.put("duration_s", p.seconds());
            row.put("goodput", p.goodput().value());
            row.put("goodput_se", p.goodput().se());
            for (Slo slo : s.slos()) {
                SearchReport.SloMargin m = p.margins().get(slo.text());
                row.put("margin " + slo.text(), m == null ? null : m.value());
                row.put("margin_se " + slo.text(), m == null ? null : m.se());
            }
            row.put("dir", p.dir());
            rows.add(row);
        }
        return SummaryCsv.write(rows);
    }

    /** The console lines: one per probe, then the answer. */
    /** The console line after a probe: its load, pass or fail, margins and the bracket (or the best goodput) so far. */
    public static String progressLine(SearchReport sofar, SearchProgress progress, String goodputUnit) {
        SearchReport.Probe last = sofar.probes().getLast();
        if (progress.drift() != null)
            return driftLine(last, progress.drift()) + (progress.reused() ? "  (reused)" : "");
        String mark = (progress.soakFactor() > 0 ? "  (soak: " + progress.soakFactor() + "x as long)" : "")
                + (progress.reused() ? "  (reused)" : "");
        if (progress.bracket() != null) {
            SearchProgress.Bracket b = progress.bracket();
            return probeLine(
                            last,
                            "bracket [" + (Double.isNaN(b.passing()) ? "-" : ConsoleTable.n(b.passing())) + ", "
                                    + (Double.isNaN(b.failing()) ? "-" : ConsoleTable.n(b.failing())) + ")")
                    + mark;
        }
        return goodputLine(
                        last,
                        goodputUnit,
                        "best so far " + ConsoleTable.n(progress.best().goodput()) + " at "
                                + ConsoleTable.n(progress.best().load()))
                + mark;
    }

    /** A drift check's console line: the reference load again, and how far its binding statistic moved. */
    static String driftLine(SearchReport.Probe p, SearchDrift.Check c) {
        String moved = c.statistic() == null
                ? "nothing to compare"
                : String.format(
                        Locale.ROOT,
                        "%s %+.1f %% (%.1f standard errors)%s",
                        c.statistic(),
                        100 * c.change(),
                        c.z(),
                        c.drifted() ? ": DRIFT" : ", within the noise or the tolerance");
        return String.format(
                Locale.ROOT,
                "probe %2d  load %-10s drift check (%s): %s",
                p.index(),
                ConsoleTable.n(p.load()),
                c.trigger() == SearchDrift.Trigger.END
                        ? "the first passing load again, probe " + c.referenceProbe()
                        : "after a contradiction: probe " + c.referenceProbe(),
                moved);
    }

    /** The line after the answer when the server drifted, or "" when it did not (or was not checked). */
    static String driftNote(SearchReport s) {
        if (s.drift() == null || !s.drift().detected()) return "";
        SearchDrift d = s.drift();
        return String.format(
                Locale.ROOT,
                "drift: %s; the interval is widened by that much to %s .. %s (measured %s .. %s)%n",
                d.describe(ConsoleTable::n),
                ConsoleTable.n(s.ciLow()),
                ConsoleTable.n(s.ciHigh()),
                ConsoleTable.n(d.bracketLow()),
                ConsoleTable.n(d.bracketHigh()));
    }

    static String probeLine(SearchReport.Probe p, String bracket) {
        StringBuilder margins = new StringBuilder();
        p.margins().forEach((k, v) -> margins.append(String.format(Locale.ROOT, "  %s %+.1f%%", k, v.value() * 100)));
        return String.format(
                Locale.ROOT,
                "probe %2d  load %-10s %s %s  %s",
                p.index(),
                ConsoleTable.n(p.load()),
                p.pass() ? "pass" : "FAIL",
                margins,
                bracket);
    }

    /** A max-goodput probe's console line. */
    static String goodputLine(SearchReport.Probe p, String unit, String best) {
        return String.format(
                Locale.ROOT,
                "probe %2d  load %-10s goodput %s ± %s %s  %s  %s",
                p.index(),
                ConsoleTable.n(p.load()),
                ConsoleTable.n(p.goodput().value()),
                ConsoleTable.n(p.goodput().se()),
                unit,
                p.pass() ? "slo pass" : "slo FAIL",
                best);
    }

    /** The answer, and a line on drift when the server drifted while it was searched. */
    public static String answer(SearchReport s) {
        return answerLine(s) + driftNote(s);
    }

    private static String answerLine(SearchReport s) {
        if (s.goodput() != null) {
            SearchReport.GoodputResult g = s.goodput();
            if (s.stopReason() == StopReason.BELOW_MIN) {
                // Not one good request at any load of the design, the lowest among them.
                java.util.DoubleSummaryStatistics loads = s.probes().stream()
                        .mapToDouble(SearchReport.Probe::load)
                        .summaryStatistics();
                return String.format(
                        Locale.ROOT,
                        "max-goodput under %s: none: no request met it at any load probed, from %s (the lowest) to "
                                + "%s; the SLO is tighter than the server's latency at the lowest load (stop: %s, %d "
                                + "probes%s)%n",
                        String.join(" and ", s.slos().stream().map(Slo::text).toList()),
                        ConsoleTable.n(loads.getCount() == 0 ? s.min() : loads.getMin()),
                        ConsoleTable.n(loads.getCount() == 0 ? s.min() : loads.getMax()),
                        s.stopReason().wireName(),
                        s.probes().size(),
                        s.simulated() ? ", simulated" : "");
            }
            String unit = g.unit().equals("tokens") ? "good output tokens/s" : "good requests/s";
            boolean sessions = s.run().sessions() != null;
            String load = s.run().load() instanceof LoadModel.Open
                    ? "rate " + ConsoleTable.n(s.value()) + (sessions ? " sessions/s" : " requests/s")
                    : "concurrency " + ConsoleTable.n(s.value()) + (sessions ? " sessions" : "");
            return String.format(
                    Locale.ROOT,
                    "max-goodput under %s: %s ± %s %s at %s (within one sd of the best: %s .. %s; "
                            + "best probe %s at %s%s; stop: %s, %d probes%s)%n",
                    String.join(" and ", s.slos().stream().map(Slo::text).toList()),
                    ConsoleTable.n(g.mean()),
                    ConsoleTable.n(g.sd()),
                    unit,
                    load,
                    ConsoleTable.n(s.ciLow()),
                    ConsoleTable.n(s.ciHigh()),
                    ConsoleTable.n(g.bestObserved()),
                    ConsoleTable.n(g.bestObservedLoad()),
                    Double.isNaN(g.batchCap())
                            ? ""
                            : "; batch cap " + ConsoleTable.n(g.batchCap()) + " (" + g.batchCapSource() + ")",
                    s.stopReason().wireName(),
                    s.probes().size(),
                    s.simulated() ? ", simulated" : "");
        }
        String unit = s.run().sessions() != null
                ? (s.objective().equals("max-rate") ? " new sessions/s" : " concurrent sessions")
                : (s.objective().equals("max-rate") ? " requests/s" : " concurrent requests");
        if (Double.isNaN(s.value())) {
            return String.format(
                    Locale.ROOT,
                    "%s: below the range: fails %s already at %s%s (stop: %s)%n",
                    s.objective(),
                    s.bindingSlo(),
                    ConsoleTable.n(s.min()),
                    unit,
                    s.stopReason().wireName());
        }
        return String.format(
                Locale.ROOT,
                "%s under %s: %s%s (interval %s .. %s, binding %s, %s, stop: %s, %d probes%s)%n",
                s.objective(),
                String.join(" and ", s.slos().stream().map(Slo::text).toList()),
                ConsoleTable.n(s.value()),
                unit,
                ConsoleTable.n(s.ciLow()),
                Double.isNaN(s.ciHigh()) ? "above " + ConsoleTable.n(s.max()) : ConsoleTable.n(s.ciHigh()),
                s.bindingSlo(),
                boundaryPhrase(s),
                s.stopReason().wireName(),
                s.probes().size(),
                s.simulated() ? ", simulated" : "");
    }

    /**
     * "cliff boundary", "smooth boundary", or, when the probe budget ran out first, that the boundary's shape was not
     * settled: a search stopped by {@code --max-probes} has an interval, not a boundary it could call smooth.
     */
    public static String boundaryPhrase(SearchReport s) {
        if (s.stopReason() == StopReason.MAX_PROBES) return "boundary not settled within --max-probes";
        return s.boundaryType() == null ? "boundary" : s.boundaryType().wireName() + " boundary";
    }
}
