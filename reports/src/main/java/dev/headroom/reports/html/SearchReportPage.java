package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;

import dev.headroom.model.LoadModel;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.SearchJson;
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

    static Page build(Path dir, SearchReport s) {
        SearchReport.GoodputResult g = s.goodput();
        boolean goodput = s.objective().equals("max-goodput");
        boolean rate = s.run().load() instanceof LoadModel.Open || s.objective().equals("max-rate");
        String axis = rate ? "request rate (req/s)" : "concurrency (users)";
        Page page = new Page("Headroom search — " + s.objective() + " under "
                + String.join(" and ", s.slos().stream().map(Slo::text).toList()));
        Header facts = Header.of(ResultFiles.Kind.SEARCH, s.run(), false);
        facts.row(
                "answer",
                goodput && g != null
                        ? "goodput " + f(g.mean()) + " ± " + f(g.sd()) + " " + g.unit() + "/s at " + f(s.value())
                                + " (statistically as good: " + f(s.ciLow()) + " .. " + f(s.ciHigh()) + ")"
                        : f(s.value()) + " (interval " + f(s.ciLow()) + " .. " + f(s.ciHigh()) + "), binding "
                                + Page.esc(String.valueOf(s.bindingSlo())) + ", "
                                + Page.esc(SearchJson.boundaryPhrase(s)));
        if (s.drift() != null) {
            var d = s.drift();
            facts.row(
                    "drift",
                    d.detected()
                            ? "<b>drifted</b>: " + Page.esc(d.describe(x -> f(x))) + "; interval widened from "
                                    + f(d.bracketLow()) + " .. " + f(d.bracketHigh())
                            : "none found: load " + f(d.largest().referenceLoad()) + " (probe "
                                    + d.largest().referenceProbe() + ") measured again, within its noise or the "
                                    + "tolerance");
        }
        facts.row(
                "stop",
                Page.esc(s.stopReason().wireName()) + ", " + s.probes().size() + " probes"
                        + (s.simulated() ? ", <b>simulated</b> (virtual clock)" : ""));
        page.facts(facts.rows());
        List<SearchReport.Probe> probes = s.probes();
        int n = probes.size();
        double[] x = new double[n], tokens = new double[n];
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            SearchReport.Probe p = probes.get(i);
            x[i] = p.load();
            labels[i] = String.valueOf(p.index());
            Path summary = dir.resolve(p.dir() == null ? "" : p.dir()).resolve("summary.json");
            tokens[i] = Files.isRegularFile(summary)
                    ? ResultFiles.probe(summary).report().summary().outputTokensPerS()
                    : Double.NaN;
        }
        List<Chart> charts = new ArrayList<>();
        List<String> captions = new ArrayList<>();
        Chart tp = new Chart("Output tokens/s against load", axis, "output tokens/s")
                .logXIfWide()
                .points("probes", x, tokens, labels);
        boundary(tp, s, goodput);
        charts.add(tp);
        captions.add("Throughput of every probe, numbered in the order it ran"
                + (goodput ? "." : "; the boundary and its interval."));
        if (goodput) {
            double[] gv = new double[n];
            for (int i = 0; i < n; i++) gv[i] = probes.get(i).goodput().value();
            Chart c = new Chart(
                            "Goodput against load",
                            axis,
                            g != null && g.unit().equals("tokens") ? "good output tokens/s" : "good requests/s")
                    .logXIfWide();
            if (g != null && g.posterior() != null && !g.posterior().isEmpty()) {
                int m = g.posterior().size();
                double[] gx = new double[m], mean = new double[m], lo = new double[m], hi = new double[m];
                for (int i = 0; i < m; i++) {
                    SearchReport.PosteriorPoint q = g.posterior().get(i);
                    gx[i] = q.load();
                    mean[i] = q.mean();
                    lo[i] = q.mean() - 2 * q.sd();
                    hi[i] = q.mean() + 2 * q.sd();
                }
                c.band("GP mean ± 2 sd", gx, lo, hi).line("GP mean", gx, mean);
            }
            c.points("probes", x, gv, labels).vline("argmax " + f(s.value()), s.value());
            charts.add(c);
            captions.add("Goodput of every probe (numbered), the Gaussian-process posterior mean with ± 2 sd, and its "
                    + "argmax.");
        }
        for (Slo slo : s.slos()) {
            String text = slo.text();
            double threshold = slo.isRate() ? slo.threshold() * 100 : slo.threshold();
            String unit = slo.isRate() ? "%" : "ms";
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                SearchReport.SloMargin margin = probes.get(i).margins().get(text);
                y[i] = threshold * (1 + (margin == null ? Double.NaN : margin.value()));
            }
            Chart c = new Chart(
                            text + " against load",
                            axis,
                            (slo.isRate()
                                            ? "error rate"
                                            : slo.metric().wireName() + " "
                                                    + slo.stat().text()) + " (" + unit + ")")
                    .logXIfWide();
            // Latencies past the boundary run to seconds: a log axis keeps the threshold region readable.
            if (!slo.isRate()) c.logYIfWide();
            List<SearchReport.CurvePoint> iso = s.curves().getOrDefault(text, List.of());
            if (!iso.isEmpty()) {
                double[] fx = new double[iso.size()], fy = new double[iso.size()];
                for (int i = 0; i < iso.size(); i++) {
                    fx[i] = iso.get(i).load();
                    fy[i] = threshold * (1 + iso.get(i).margin());
                }
                c.line("isotonic fit", fx, fy);
            }
            c.points("probes", x, y, labels).hline("SLO " + f(threshold) + " " + unit, threshold);
            boundary(c, s, goodput);
            charts.add(c);
            captions.add("The observed " + text.replaceAll("[<>].*", "")
                    + " of every probe, the threshold, the isotonic fit the search used"
                    + (goodput ? "." : ", and the boundary with its interval shaded."));
        }
        page.h2("Probes");
        page.charts(charts, captions);
        List<List<String>> rows = new ArrayList<>();
        for (SearchReport.Probe p : probes) {
            StringBuilder m = new StringBuilder();
            p.margins()
                    .forEach((k, v) -> m.append(m.isEmpty() ? "" : "; ")
                            .append(Page.esc(k))
                            .append(" ")
                            .append(String.format(Locale.ROOT, "%+.1f %%", 100 * v.value())));
            rows.add(List.of(
                    String.valueOf(p.index()),
                    f(p.load()),
                    p.pass() ? "pass" : "fail",
                    m.toString(),
                    f(p.goodput().value()),
                    String.valueOf(p.requests()),
                    f(p.seconds()),
                    Page.esc(p.dir() == null ? "" : p.dir())));
        }
        String goodputUnit = g != null && g.unit().equals("tokens") ? "good output tok/s" : "good req/s";
        page.table(
                List.of(
                        "#",
                        rate ? "load (req/s)" : "load (users)",
                        "verdict",
                        "margins",
                        "goodput (" + goodputUnit + ")",
                        "requests",
                        "duration (s)",
                        "dir"),
                rows);
        return page;
    }

    private static void boundary(Chart c, SearchReport s, boolean goodput) {
        double lo = s.ciLow(), hi = s.ciHigh(), v = s.value();
        if (goodput) return;
        if (Double.isFinite(lo) && Double.isFinite(hi) && hi > lo) c.span("interval", lo, hi);
        if (Double.isFinite(v)) c.vline("boundary " + f(v), v);
    }
}
