package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.Slo;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.chart.Chart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A sweep: throughput and each SLO metric against load, the SLO thresholds and the knee. */
final class SweepReportPage {
    private SweepReportPage() {}

    static Page build(ResultFiles.Sweep sweep) {
        List<ResultFiles.Probe> points = sweep.points();
        int n = points.size();
        RunInfo first = n == 0 ? null : points.getFirst().report().run();
        boolean open = first != null && first.load() instanceof LoadModel.Open;
        String axis = open ? "request rate (req/s)" : "concurrency (users)";
        Page page = new Page("Headroom sweep — " + n + " load points");
        Header facts = first == null
                ? Header.of(ResultFiles.Kind.SWEEP, "", "")
                : Header.of(ResultFiles.Kind.SWEEP, first, false);
        if (first != null) facts.source(points.getFirst().source());
        ResultFiles.Knee knee = sweep.knee();
        facts.row(
                "knee",
                knee.index() == null
                        ? "none"
                        : "point " + knee.index() + " (" + Page.esc(knee.load()) + "): " + Page.esc(knee.rule()));
        page.facts(facts.rows());
        double[] x = new double[n], tokens = new double[n];
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            ProbeReport p = points.get(i).report();
            x[i] = switch (p.run().load()) {
                case LoadModel.Open o -> o.ratePerSecond();
                case LoadModel.Closed c -> c.concurrency();
                case null -> Double.NaN;
            };
            tokens[i] = p.summary().outputTokensPerS();
            labels[i] = String.valueOf(i + 1);
        }
        List<Chart> charts = new ArrayList<>();
        List<String> captions = new ArrayList<>();
        Chart tp = new Chart("Output tokens/s against load", axis, "output tokens/s")
                .logXIfWide()
                .line("output tokens/s", x, tokens)
                .points("", x, tokens, labels);
        if (knee.index() != null) {
            int k = knee.index() - 1;
            if (k >= 0 && k < n) tp.vline("knee", x[k]);
        }
        charts.add(tp);
        captions.add(
                "Throughput at each load point (numbered in the order they ran); the knee is where throughput stops "
                        + "paying for latency (max of Kleinrock's power).");
        // One chart per SLO metric (or TTFT and E2E p95 when there were no SLOs), threshold drawn.
        Map<String, Double> metrics = new LinkedHashMap<>();
        Map<String, SloStat> stats = new LinkedHashMap<>();
        if (n > 0) {
            for (Summary.SloResult r : points.getFirst().report().summary().slo()) {
                Slo s = r.slo();
                if (s.isRate() || s.metric().perSession()) continue;
                String key = s.metric().distributionKey().key() + " " + s.stat().text();
                metrics.put(key, s.threshold());
                stats.put(key, s.stat());
            }
        }
        if (metrics.isEmpty()) {
            metrics.put("ttft_ms p95", Double.NaN);
            stats.put("ttft_ms p95", SloStat.P95);
            metrics.put("e2e_ms p95", Double.NaN);
            stats.put("e2e_ms p95", SloStat.P95);
        }
        metrics.forEach((key, threshold) -> {
            String[] mk = key.split(" ");
            SloStat stat = stats.get(key);
            double[] y = new double[n];
            for (int i = 0; i < n; i++)
                y[i] = stat.of(points.get(i).report().summary().distribution(Metric.ofKey(mk[0])));
            Chart c = new Chart(
                            mk[0] + " " + mk[1] + " against load",
                            axis,
                            mk[0].replace("_ms", "") + " " + mk[1] + " (ms)")
                    .logXIfWide()
                    .logYIfWide()
                    .line(mk[1], x, y)
                    .points("", x, y, labels);
            if (Double.isFinite(threshold)) c.hline("SLO " + f(threshold) + " ms", threshold);
            charts.add(c);
            captions.add(mk[0] + " " + mk[1] + " at each load point"
                    + (Double.isFinite(threshold) ? ", with the SLO threshold." : "."));
        });
        page.h2("Throughput and latency against load");
        page.charts(charts, captions);
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Summary p = points.get(i).report().summary();
            rows.add(List.of(
                    String.valueOf(i + 1),
                    f(x[i]),
                    f(p.outputTokensPerS()),
                    f(p.distribution(Metric.TTFT_MS).p95()),
                    f(p.distribution(Metric.ITL_MS).p99()),
                    f(p.distribution(Metric.E2E_MS).p95()),
                    p.sloPass() ? "pass" : "FAIL",
                    Page.esc(sweep.dirs().get(i) == null ? "" : sweep.dirs().get(i))));
        }
        page.table(
                List.of(
                        "#",
                        open ? "rate" : "users",
                        "output tok/s",
                        "ttft p95 ms",
                        "itl p99 ms",
                        "e2e p95 ms",
                        "SLO",
                        "dir"),
                rows);
        return page;
    }
}
