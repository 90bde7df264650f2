package dev.headroom.reports.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The page of a fidelity.json ({@code headroom fidelity}, or the twin of {@code headroom calibrate} against its
 * probes): errors by kind of metric, in-sample and cross-validated, the parameters, and every comparison.
 */
final class FidelityReportPage {
    private static final List<String> KINDS = List.of("ttft", "tpot/itl", "throughput", "e2e");

    private FidelityReportPage() {}

    static Page build(Path file) {
        JsonNode r;
        try {
            r = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException("report: cannot read " + file + ": " + e.getMessage());
        }
        boolean calibration = Files.isRegularFile(file.resolveSibling("calibration.yaml"));
        Page page = new Page(calibration ? "Headroom calibration: the twin against its probes" : "Simulator fidelity");
        page.facts(List.of(
                new String[] {"observations", Page.esc(r.path("sources").asText())},
                new String[] {
                    "load points",
                    r.path("observations").asText() + " ("
                            + r.path("comparisons").asText() + " numbers compared)"
                },
                new String[] {"parameters", r.path("parameters_fitted").asBoolean() ? "fitted to them" : "as shipped"},
                new String[] {"tool", Page.esc(r.at("/tool/version").asText())}));
        if (calibration) calibrationSections(page, file.resolveSibling("calibration.yaml"));
        page.h2("Median absolute error");
        List<List<String>> rows = new ArrayList<>();
        rows.add(errorRow(r.path("parameters_fitted").asBoolean() ? "in-sample" : "all", r.path("median_abs_error")));
        if (r.has("median_abs_error_cross_validated")) {
            rows.add(errorRow("cross-validated", r.path("median_abs_error_cross_validated")));
        }
        for (var it = r.path("median_abs_error_by_hardware").fields(); it.hasNext(); ) {
            var g = it.next();
            JsonNode e = g.getValue().has("cross_validated")
                    ? g.getValue().path("cross_validated")
                    : g.getValue().path("in_sample");
            rows.add(errorRow(g.getKey(), e));
        }
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(KINDS);
        page.table(header, rows);
        page.p("<span class=\"note\">|predicted ÷ observed − 1|, median over the numbers of that kind (their count in "
                + "brackets). Cross-validated: each number predicted by a fit that did not see its source.</span>");
        page.h2("Parameters");
        List<List<String>> params = new ArrayList<>();
        for (JsonNode p : r.path("parameters")) {
            params.add(List.of(
                    Page.esc(p.path("name").asText()),
                    p.path("hardware").isNull()
                            ? "all"
                            : Page.esc(p.path("hardware").asText()),
                    num(p.path("value")),
                    num(p.path("prior")),
                    num(p.path("min")) + " .. " + num(p.path("max"))));
        }
        page.table(List.of("term", "applies to", "value", "prior", "range"), params);
        page.h2("Every comparison");
        List<List<String>> points = new ArrayList<>();
        for (JsonNode p : r.path("points")) {
            points.add(List.of(
                    Page.esc(p.path("id").asText()),
                    Page.esc(p.path("hardware").asText()),
                    Page.esc(p.path("metric").asText()
                            + (p.has("stat") ? " " + p.path("stat").asText() : "")),
                    num(p.path("observed")),
                    num(p.path("predicted")),
                    pct(p.path("error")),
                    p.has("error_held_out") ? pct(p.path("error_held_out")) : ""));
        }
        page.table(List.of("load point", "hardware", "metric", "observed", "predicted", "error", "held out"), points);
        return page;
    }

    /**
     * What calibration.yaml adds to the fit: what the server stated, the phases' notes (probes substituted, skipped,
     * replaced), the warnings, and the twin against the check points no probe went to.
     */
    private static void calibrationSections(Page page, Path yaml) {
        JsonNode c;
        try {
            c = new ObjectMapper(new YAMLFactory()).readTree(yaml.toFile());
        } catch (IOException e) {
            return; // the fit's own page still stands
        }
        page.h2("What the server stated");
        List<List<String>> stated = new ArrayList<>();
        for (JsonNode f : c.at("/server/stated")) {
            stated.add(List.of(
                    Page.esc(f.path("key").asText()),
                    Page.esc(f.path("value").asText()),
                    Page.esc(f.path("source").asText())));
        }
        if (stated.isEmpty()) {
            page.p("Nothing: " + Page.esc(c.at("/server/kind").asText("unknown"))
                    + " answered none of the introspection endpoints; every limit was measured.");
        } else {
            page.p("Server: " + Page.esc(c.at("/server/kind").asText()) + " "
                    + Page.esc(c.at("/server/version").asText("")));
            page.table(List.of("limit", "value", "read from"), stated);
        }
        page.p("Twin: " + Page.esc(c.path("structure").asText()));
        if (c.path("warnings").size() > 0 || c.path("notes").size() > 0) {
            page.h2("Warnings and notes");
            StringBuilder b = new StringBuilder("<ul>");
            for (JsonNode w : c.path("warnings"))
                b.append("<li><b>warning:</b> ").append(Page.esc(w.asText()));
            for (JsonNode n : c.path("notes")) b.append("<li>").append(Page.esc(n.asText()));
            page.p(b.append("</ul>").toString());
        }
        if (c.path("checks").size() > 0) {
            page.h2("The twin where no probe went (check points)");
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode point : c.path("checks")) {
                for (JsonNode m : point.path("metrics")) {
                    rows.add(List.of(
                            Page.esc(point.path("name").asText()),
                            point.path("users").asText(),
                            point.path("isl").asText() + " / "
                                    + point.path("osl").asText(),
                            Page.esc(m.path("metric").asText()),
                            num(m.path("observed")),
                            num(m.path("twin")),
                            pct(m.path("error"))));
                }
            }
            page.table(List.of("point", "users", "isl / osl", "metric", "measured", "twin", "error"), rows);
        }
    }

    private static List<String> errorRow(String label, JsonNode errors) {
        List<String> row = new ArrayList<>(List.of(Page.esc(label)));
        for (String k : KINDS) {
            JsonNode e = errors.path(k);
            row.add(
                    e.isMissingNode()
                            ? "-"
                            : String.format(
                                    Locale.ROOT,
                                    "%.1f %% (%d)",
                                    100 * e.path("median").asDouble(),
                                    e.path("comparisons").asInt()));
        }
        return row;
    }

    private static String num(JsonNode v) {
        return v.isNumber() ? String.format(Locale.ROOT, "%.4g", v.asDouble()) : "-";
    }

    private static String pct(JsonNode v) {
        return v.isNumber() ? String.format(Locale.ROOT, "%+.1f %%", 100 * v.asDouble()) : "-";
    }
}
