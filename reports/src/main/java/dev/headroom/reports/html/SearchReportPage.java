package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;
import static dev.headroom.reports.html.Numbers.num;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.Slo;
import dev.headroom.reports.chart.Chart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A search: every probe numbered in the order it ran; throughput and each SLO's observed value against load with
 * the threshold, the isotonic fit and the boundary's interval; for max-goodput, goodput with the GP mean ± 2 sd.
 */
final class SearchReportPage {
    private SearchReportPage() {}

    static Page build(Path dir, JsonNode s) {
        JsonNode r = s.path("result");
        boolean goodput = s.path("objective").asText().equals("max-goodput");
        boolean rate = s.at("/range/axis").asText().equals("rate")
                || s.path("objective").asText().equals("max-rate");
        String axis = rate ? "request rate (req/s)" : "concurrency (users)";
        Page page = new Page("Headroom search — " + s.path("objective").asText() + " under "
                + String.join(" and ", texts(s.path("slo"))));
        List<String[]> facts = Header.of(s, "search");
        facts.add(new String[] {
            "answer",
            goodput
                    ? "goodput " + f(r.at("/goodput/mean")) + " ± " + f(r.at("/goodput/sd")) + " "
                            + r.at("/goodput/unit").asText() + "/s at " + f(r.path("value"))
                            + " (statistically as good: " + f(r.path("ci_low")) + " .. " + f(r.path("ci_high")) + ")"
                    : f(r.path("value")) + " (interval " + f(r.path("ci_low")) + " .. " + f(r.path("ci_high"))
                            + "), binding " + Page.esc(r.path("binding_slo").asText()) + ", "
                            + r.path("boundary_type").asText() + " boundary"
        });
        facts.add(new String[] {
            "stop",
            Page.esc(r.path("stop_reason").asText()) + ", " + s.path("probes").size() + " probes"
                    + (r.path("simulated").asBoolean() ? ", <b>simulated</b> (virtual clock)" : "")
        });
        page.facts(facts);
        JsonNode probes = s.path("probes");
        int n = probes.size();
        double[] x = new double[n], tokens = new double[n];
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            JsonNode p = probes.get(i);
            x[i] = num(p.path("load"));
            labels[i] = p.path("index").asText();
            Path summary = dir.resolve(p.path("dir").asText("")).resolve("summary.json");
            tokens[i] = Files.isRegularFile(summary)
                    ? num(RunDirectory.read(summary).at("/metrics/output_tokens_per_s"))
                    : Double.NaN;
        }
        List<Chart> charts = new ArrayList<>();
        List<String> captions = new ArrayList<>();
        Chart tp = new Chart("Output tokens/s against load", axis, "output tokens/s")
                .logX()
                .points("probes", x, tokens, labels);
        boundary(tp, r, goodput);
        charts.add(tp);
        captions.add("Throughput of every probe, numbered in the order it ran"
                + (goodput ? "." : "; the boundary and its interval."));
        if (goodput) {
            double[] g = new double[n];
            for (int i = 0; i < n; i++) g[i] = num(probes.get(i).at("/goodput/value"));
            Chart c = new Chart(
                            "Goodput against load",
                            axis,
                            r.at("/goodput/unit").asText().equals("tokens")
                                    ? "good output tokens/s"
                                    : "good requests/s")
                    .logX();
            JsonNode pts = s.at("/curves/gp/points");
            if (pts.isArray() && !pts.isEmpty()) {
                int m = pts.size();
                double[] gx = new double[m], mean = new double[m], lo = new double[m], hi = new double[m];
                for (int i = 0; i < m; i++) {
                    gx[i] = num(pts.get(i).path("load"));
                    mean[i] = num(pts.get(i).path("mean"));
                    lo[i] = mean[i] - 2 * num(pts.get(i).path("sd"));
                    hi[i] = mean[i] + 2 * num(pts.get(i).path("sd"));
                }
                c.band("GP mean ± 2 sd", gx, lo, hi).line("GP mean", gx, mean);
            }
            c.points("probes", x, g, labels).vline("argmax " + f(r.path("value")), num(r.path("value")));
            charts.add(c);
            captions.add("Goodput of every probe (numbered), the Gaussian-process posterior mean with ± 2 sd, and its "
                    + "argmax.");
        }
        for (JsonNode sloNode : s.path("slo")) {
            String text = sloNode.asText();
            Slo slo = Slo.parse(text);
            double threshold = slo.isRate() ? slo.threshold() * 100 : slo.threshold();
            String unit = slo.isRate() ? "%" : "ms";
            double[] y = new double[n];
            for (int i = 0; i < n; i++)
                y[i] = threshold * (1 + num(probes.get(i).at("/margins/" + pointer(text) + "/value")));
            Chart c = new Chart(
                            text + " against load",
                            axis,
                            (slo.isRate()
                                            ? "error rate"
                                            : slo.metric().wireName() + " "
                                                    + slo.stat().text()) + " (" + unit + ")")
                    .logX();
            // Latencies past the boundary run to seconds: a log axis keeps the threshold region readable.
            if (!slo.isRate()) c.logY();
            JsonNode iso = s.at("/curves/isotonic/" + pointer(text));
            if (iso.isArray() && !iso.isEmpty()) {
                double[] fx = new double[iso.size()], fy = new double[iso.size()];
                for (int i = 0; i < iso.size(); i++) {
                    fx[i] = num(iso.get(i).path("load"));
                    fy[i] = threshold * (1 + num(iso.get(i).path("margin")));
                }
                c.line("isotonic fit", fx, fy);
            }
            c.points("probes", x, y, labels).hline("SLO " + f(threshold) + " " + unit, threshold);
            boundary(c, r, goodput);
            charts.add(c);
            captions.add("The observed " + text.replaceAll("[<>].*", "")
                    + " of every probe, the threshold, the isotonic fit the search used"
                    + (goodput ? "." : ", and the boundary with its interval shaded."));
        }
        page.h2("Probes");
        page.charts(charts, captions);
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode p : probes) {
            StringBuilder m = new StringBuilder();
            p.path("margins")
                    .properties()
                    .forEach(e -> m.append(Page.esc(e.getKey()))
                            .append(" ")
                            .append(String.format(
                                    Locale.ROOT,
                                    "%+.1f %%",
                                    100 * num(e.getValue().path("value"))))
                            .append("; "));
            rows.add(List.of(
                    p.path("index").asText(),
                    f(p.path("load")),
                    p.path("verdict").asText(),
                    m.toString(),
                    f(p.at("/goodput/value")),
                    p.path("requests").asText(),
                    f(p.path("duration_s")),
                    Page.esc(p.path("dir").asText())));
        }
        page.table(List.of("#", "load", "verdict", "margins", "goodput", "requests", "s", "dir"), rows);
        return page;
    }

    private static void boundary(Chart c, JsonNode r, boolean goodput) {
        double lo = num(r.path("ci_low")), hi = num(r.path("ci_high")), v = num(r.path("value"));
        if (goodput) return;
        if (Double.isFinite(lo) && Double.isFinite(hi) && hi > lo) c.span("interval", lo, hi);
        if (Double.isFinite(v)) c.vline("boundary " + f(v), v);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }

    /** A JSON pointer segment for an SLO text (which may hold '/'). */
    private static String pointer(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
