package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;
import static dev.headroom.reports.html.Numbers.num;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.reports.chart.Chart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A sweep: throughput and each SLO metric against load, the SLO thresholds and the knee. */
final class SweepReportPage {
    private SweepReportPage() {}

    static Page build(JsonNode sweep) {
        JsonNode points = sweep.path("points");
        JsonNode first = points.isEmpty() ? sweep : points.get(0);
        boolean open = first.at("/load/mode").asText().equals("open");
        String axis = open ? "request rate (req/s)" : "concurrency (users)";
        Page page = new Page("Headroom sweep — " + points.size() + " load points");
        List<String[]> facts = Header.of(sweep, "sweep");
        facts.add(new String[] {
            "knee",
            sweep.at("/knee/index").isNull()
                    ? "none"
                    : "point " + sweep.at("/knee/index").asText() + " ("
                            + Page.esc(sweep.at("/knee/load").asText()) + "): "
                            + Page.esc(sweep.at("/knee/rule").asText())
        });
        page.facts(facts);
        int n = points.size();
        double[] x = new double[n], tokens = new double[n];
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            JsonNode p = points.get(i);
            x[i] = num(open ? p.at("/load/rate") : p.at("/load/concurrency"));
            tokens[i] = num(p.at("/metrics/output_tokens_per_s"));
            labels[i] = String.valueOf(i + 1);
        }
        List<Chart> charts = new ArrayList<>();
        List<String> captions = new ArrayList<>();
        Chart tp = new Chart("Output tokens/s against load", axis, "output tokens/s")
                .logX()
                .line("output tokens/s", x, tokens)
                .points("", x, tokens, labels);
        if (!sweep.at("/knee/index").isNull()) {
            int k = sweep.at("/knee/index").asInt() - 1;
            if (k >= 0 && k < n) tp.vline("knee", x[k]);
        }
        charts.add(tp);
        captions.add(
                "Throughput at each load point (numbered in the order they ran); the knee is where throughput stops "
                        + "paying for latency (max of Kleinrock's power).");
        // One chart per SLO metric (or TTFT and E2E p95 when there were no SLOs), threshold drawn.
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (!first.path("slo").isEmpty()) {
            for (JsonNode s : first.path("slo")) {
                if (!s.path("metric").asText().equals("error_rate")) {
                    metrics.put(
                            s.path("metric").asText() + "_ms/" + s.path("stat").asText(), num(s.path("threshold")));
                }
            }
        }
        if (metrics.isEmpty()) {
            metrics.put("ttft_ms/p95", Double.NaN);
            metrics.put("e2e_ms/p95", Double.NaN);
        }
        metrics.forEach((key, threshold) -> {
            String[] mk = key.split("/");
            double[] y = new double[n];
            for (int i = 0; i < n; i++)
                y[i] = num(points.get(i).at("/metrics/" + mk[0] + "/" + mk[1].replace(".", "")));
            Chart c = new Chart(
                            mk[0] + " " + mk[1] + " against load",
                            axis,
                            mk[0].replace("_ms", "") + " " + mk[1] + " (ms)")
                    .logX()
                    .logY()
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
            JsonNode p = points.get(i);
            rows.add(List.of(
                    String.valueOf(i + 1),
                    f(x[i]),
                    f(p.at("/metrics/output_tokens_per_s")),
                    f(p.at("/metrics/ttft_ms/p95")),
                    f(p.at("/metrics/itl_ms/p99")),
                    f(p.at("/metrics/e2e_ms/p95")),
                    p.path("slo_pass").asBoolean() ? "pass" : "FAIL",
                    Page.esc(p.path("dir").asText())));
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
