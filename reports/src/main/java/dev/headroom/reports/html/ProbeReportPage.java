package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;
import static dev.headroom.reports.html.Numbers.num;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.ServerMetrics;
import dev.headroom.reports.chart.Chart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A probe: latency distributions, in-flight requests and output tokens/s over the run, errors by kind. */
final class ProbeReportPage {
    private ProbeReportPage() {}

    static Page build(Path dir, JsonNode summary) {
        Page page = new Page("Headroom probe — " + summary.at("/target/model").asText());
        page.facts(Header.of(summary, "probe"));
        metricsTable(page, summary);
        List<JsonNode> requests = RunDirectory.requests(dir);
        if (requests.isEmpty()) {
            // Imported results (and runs interrupted before their first request) have no per-request data to draw.
            page.h2("Per-request data");
            page.p(
                    summary.has("source")
                            ? "Imported from "
                                    + Page.esc(summary.at("/source/tool").asText()) + " ("
                                    + Page.esc(summary.at("/source/file").asText())
                                    + "): no per-request records, so no distributions or "
                                    + "time series; the statistics above are the source's own."
                            : "No requests.jsonl in this directory.");
            if (summary.at("/source/notes").isArray()) {
                StringBuilder notes = new StringBuilder();
                summary.at("/source/notes")
                        .forEach(n ->
                                notes.append("• ").append(Page.esc(n.asText())).append("<br>"));
                page.p(notes.toString());
            }
            return page;
        }
        boolean open = summary.at("/load/mode").asText().equals("open");
        page.h2("Latency distributions");
        List<Chart> charts = new ArrayList<>();
        List<String> captions = new ArrayList<>();
        for (String metric : List.of("ttft", "tpot", "e2e")) {
            double[] v = values(requests, metric, open);
            Chart c = new Chart(
                    metric.toUpperCase() + " — cumulative distribution", metric + " (ms)", "fraction of requests");
            if (v.length > 0) {
                double[][] cdf = Numbers.cdf(v);
                c.step(metric, cdf[0], cdf[1]);
                c.vline("p50 " + f(Numbers.percentile(v, 0.5)), Numbers.percentile(v, 0.5));
                c.vline("p95 " + f(Numbers.percentile(v, 0.95)), Numbers.percentile(v, 0.95));
                c.vline("p99 " + f(Numbers.percentile(v, 0.99)), Numbers.percentile(v, 0.99));
            }
            charts.add(c);
            captions.add(metric + " of every completed measured request (" + v.length
                    + "), p50/p95/p99 marked. Origin: "
                    + (open ? "the intended send time (open loop)" : "the actual send time (closed loop)") + ".");
        }
        page.charts(charts, captions);
        page.h2("Over the run");
        page.charts(
                List.of(inFlight(requests), tokensPerSecond(requests)),
                List.of(
                        "Requests in flight (sent, not yet ended) over the run; the warm-up is shaded.",
                        "Output tokens/s over the run in 1 s bins (each request's tokens spread between its first "
                                + "and last token); "
                                + "the warm-up is shaded."));
        List<JsonNode> scrapes = RunDirectory.lines(dir.resolve("server_metrics.jsonl"));
        if (!scrapes.isEmpty()) {
            page.h2("What the server said ("
                    + Page.esc(summary.at("/server/url").asText("/metrics")) + ")");
            page.charts(
                    List.of(serverQueue(scrapes), serverKv(scrapes)),
                    List.of(
                            "Requests the server reports running (in its batch) and waiting, scraped every "
                                    + f(summary.at("/server/interval_s"))
                                    + " s — beside the client's in-flight count above.",
                            "KV-cache usage the server reports (1 = full); preemptions over the probe: "
                                    + f(summary.at("/server/preemptions")) + "."));
        }
        JsonNode errors = summary.path("errors");
        page.h2("Errors");
        if (errors.isEmpty()) {
            page.p("No failed requests.");
        } else {
            List<String> kinds = new ArrayList<>();
            List<Double> counts = new ArrayList<>();
            errors.properties().forEach(e -> {
                kinds.add(e.getKey());
                counts.add(e.getValue().asDouble());
            });
            page.charts(
                    List.of(new Chart("Failed requests by kind", "error kind", "requests")
                            .bars(
                                    "failed",
                                    kinds,
                                    counts.stream()
                                            .mapToDouble(Double::doubleValue)
                                            .toArray())),
                    List.of("Every failed measured request, by the kind docs/metrics.md defines."));
        }
        return page;
    }

    /** A known gauge's value in one scrape (summed over its series), or NaN. */
    private static double gauge(JsonNode scrape, List<String> names) {
        for (String name : names) {
            double sum = 0;
            boolean found = false;
            var fields = scrape.path("samples").properties();
            for (var e : fields) {
                String series = e.getKey();
                int b = series.indexOf('{');
                if ((b < 0 ? series : series.substring(0, b)).equals(name)
                        && e.getValue().isNumber()) {
                    sum += e.getValue().asDouble();
                    found = true;
                }
            }
            if (found) return sum;
        }
        return Double.NaN;
    }

    private static Chart serverQueue(List<JsonNode> scrapes) {
        double[] t = new double[scrapes.size()], run = new double[scrapes.size()], wait = new double[scrapes.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = num(scrapes.get(i).path("t_s"));
            run[i] = gauge(scrapes.get(i), ServerMetrics.KNOWN.get("running"));
            wait[i] = gauge(scrapes.get(i), ServerMetrics.KNOWN.get("waiting"));
        }
        return new Chart("Server: running and waiting requests", "time since start (s)", "requests")
                .line("running", t, run)
                .line("waiting", t, wait);
    }

    private static Chart serverKv(List<JsonNode> scrapes) {
        double[] t = new double[scrapes.size()], kv = new double[scrapes.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = num(scrapes.get(i).path("t_s"));
            kv[i] = gauge(scrapes.get(i), ServerMetrics.KNOWN.get("kv_cache_usage"));
        }
        return new Chart("Server: KV-cache usage", "time since start (s)", "fraction used").line("KV cache", t, kv);
    }

    private static void metricsTable(Page page, JsonNode s) {
        page.h2("Summary");
        List<List<String>> rows = new ArrayList<>();
        for (String k : List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms")) {
            JsonNode d = s.at("/metrics/" + k);
            rows.add(List.of(
                    k,
                    f(d.path("mean")),
                    f(d.path("p50")),
                    f(d.path("p90")),
                    f(d.path("p95")),
                    f(d.path("p99")),
                    f(d.path("p999")),
                    f(d.path("max"))));
        }
        page.table(List.of("metric", "mean", "p50", "p90", "p95", "p99", "p99.9", "max"), rows);
        JsonNode m = s.path("metrics");
        page.table(
                List.of(
                        "output tokens/s",
                        "requests/s",
                        "goodput req/s",
                        "SLO attainment",
                        "error rate",
                        "completed",
                        "failed",
                        "incomplete",
                        "window s"),
                List.of(List.of(
                        f(m.path("output_tokens_per_s")),
                        f(m.path("requests_per_s")),
                        f(m.path("goodput_requests_per_s")),
                        Numbers.pct(num(m.path("slo_attainment"))),
                        Numbers.pct(num(m.path("error_rate"))),
                        s.at("/counts/completed").asText(),
                        s.at("/counts/failed").asText(),
                        s.at("/counts/incomplete").asText(),
                        f(s.path("window_s")))));
        if (!s.path("slo").isEmpty()) {
            List<List<String>> slo = new ArrayList<>();
            for (JsonNode x : s.path("slo")) {
                slo.add(List.of(
                        Page.esc(x.path("metric").asText() + ":"
                                + x.path("stat").asText() + x.path("op").asText()
                                + x.path("threshold").asText()),
                        f(x.path("observed")),
                        x.path("pass").asBoolean()
                                ? "<span class=\"ok\">pass</span>"
                                : "<span class=\"bad\">FAIL</span>"));
            }
            page.table(List.of("SLO", "observed", "verdict"), slo);
        }
    }

    /** A latency per completed measured request, in ms, sorted. */
    static double[] values(List<JsonNode> requests, String metric, boolean open) {
        List<Double> out = new ArrayList<>();
        for (JsonNode r : requests) {
            if (!r.path("phase").asText().equals("measure")
                    || !r.path("outcome").asText().equals("completed")) continue;
            double origin = num(open ? r.path("intended_s") : r.path("sent_s"));
            double first = num(r.path("first_token_s")), last = num(r.path("last_token_s"));
            double osl = num(r.path("osl"));
            double v = switch (metric) {
                case "ttft" -> first - origin;
                case "e2e" -> last - origin;
                default -> osl >= 2 ? (last - first) / (osl - 1) : Double.NaN;
            };
            if (Double.isFinite(v)) out.add(v * 1000);
        }
        double[] a = out.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a;
    }

    private static double warmupEnd(List<JsonNode> requests) {
        double end = 0;
        for (JsonNode r : requests) {
            if (r.path("phase").asText().equals("warmup")) end = Math.max(end, num(r.path("sent_s")));
        }
        return end;
    }

    private static Chart inFlight(List<JsonNode> requests) {
        List<double[]> events = new ArrayList<>();
        for (JsonNode r : requests) {
            double sent = num(r.path("sent_s")), end = num(r.path("end_s"));
            if (!Double.isFinite(sent)) continue;
            events.add(new double[] {sent, 1});
            if (Double.isFinite(end)) events.add(new double[] {end, -1});
        }
        events.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
        double[] x = new double[events.size()], y = new double[events.size()];
        double level = 0;
        for (int i = 0; i < events.size(); i++) {
            level += events.get(i)[1];
            x[i] = events.get(i)[0];
            y[i] = level;
        }
        Chart c = new Chart("Requests in flight", "time since start (s)", "requests").step("in flight", x, y);
        double w = warmupEnd(requests);
        if (w > 0) c.span("warm-up", 0, w);
        return c;
    }

    private static Chart tokensPerSecond(List<JsonNode> requests) {
        double end = 0;
        for (JsonNode r : requests)
            end = Math.max(end, num(r.path("last_token_s")) > 0 ? num(r.path("last_token_s")) : 0);
        int bins = Math.max(1, (int) Math.ceil(end));
        double[] tokens = new double[bins];
        for (JsonNode r : requests) {
            double a = num(r.path("first_token_s")), b = num(r.path("last_token_s")), osl = num(r.path("osl"));
            if (!Double.isFinite(a) || !Double.isFinite(b) || !(osl > 0)) continue;
            if (b <= a) {
                tokens[Math.min(bins - 1, (int) a)] += osl;
                continue;
            }
            for (int s = (int) a; s <= Math.min(bins - 1, (int) b); s++) {
                double overlap = Math.min(b, s + 1) - Math.max(a, s);
                if (overlap > 0) tokens[s] += osl * overlap / (b - a);
            }
        }
        double[] x = new double[bins];
        for (int i = 0; i < bins; i++) x[i] = i + 0.5;
        Chart c = new Chart("Output tokens per second", "time since start (s)", "output tokens/s")
                .line("tokens/s", x, tokens);
        double w = warmupEnd(requests);
        if (w > 0) c.span("warm-up", 0, w);
        return c;
    }
}
