package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;

import dev.headroom.model.Distribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.Summary;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.ServerScrapes;
import dev.headroom.reports.chart.Chart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A probe: latency distributions, in-flight requests and output tokens/s over the run, errors by kind. */
final class ProbeReportPage {
    private ProbeReportPage() {}

    static Page build(Path dir, ResultFiles.Probe probe) {
        ProbeReport report = probe.report();
        Page page = new Page("Headroom probe — "
                + (report.run().model() == null ? "" : report.run().model()));
        page.facts(Header.of(probe).rows());
        metricsTable(page, report.summary());
        List<RequestsJsonl.Line> requests = RequestsJsonl.read(dir.resolve("requests.jsonl"));
        if (requests.isEmpty()) {
            // Imported results (and runs interrupted before their first request) have no per-request data to draw.
            page.h2("Per-request data");
            ResultFiles.Source src = probe.source();
            page.p(
                    src != null
                            ? "Imported from " + Page.esc(src.tool()) + " (" + Page.esc(src.file())
                                    + "): no per-request records, so no distributions or "
                                    + "time series; the statistics above are the source's own."
                            : "No requests.jsonl in this directory.");
            if (src != null && !src.notes().isEmpty()) {
                StringBuilder notes = new StringBuilder();
                src.notes().forEach(n -> notes.append("• ").append(Page.esc(n)).append("<br>"));
                page.p(notes.toString());
            }
            return page;
        }
        boolean open = report.run().load() instanceof LoadModel.Open;
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
        List<Chart> overTime = new ArrayList<>(List.of(inFlight(requests), tokensPerSecond(requests)));
        List<String> overTimeCaptions = new ArrayList<>(List.of(
                "Requests in flight (sent, not yet ended) over the run; the warm-up is shaded.",
                "Output tokens/s over the run in 1 s bins (each request's tokens spread between its first "
                        + "and last token); "
                        + "the warm-up is shaded."));
        double bin = binSeconds(requests);
        Chart series = latencyOverTime(requests, bin, open);
        if (series.pointCount() > 0) {
            overTime.add(series);
            overTimeCaptions.add("TTFT and TPOT p50 and p99 of the measured requests that ended in each " + f(bin)
                    + "-s interval of the run (intervals with fewer than 5 such requests left out).");
        }
        page.charts(overTime, overTimeCaptions);
        if (report.sessions() != null) sessions(page, report.sessions(), requests);
        List<ServerScrapes.Scrape> scrapes = ServerScrapes.read(dir.resolve("server_metrics.jsonl"));
        ServerMetrics server = report.server();
        if (!scrapes.isEmpty()) {
            page.h2("What the server said (" + Page.esc(server != null ? server.url() : "/metrics") + ")");
            page.charts(
                    List.of(serverQueue(scrapes), serverKv(scrapes)),
                    List.of(
                            "Requests the server reports running (in its batch) and waiting, scraped every "
                                    + f(server != null ? server.intervalSeconds() : Double.NaN)
                                    + " s — beside the client's in-flight count above.",
                            "KV-cache usage the server reports (1 = full); preemptions over the probe: "
                                    + f(
                                            server != null
                                                    ? server.counters().getOrDefault("preemptions", Double.NaN)
                                                    : Double.NaN)
                                    + "."));
        }
        Map<String, Long> errors = report.summary().errors();
        page.h2("Errors");
        if (errors.isEmpty()) {
            page.p("No failed requests.");
        } else {
            page.charts(
                    List.of(new Chart("Failed requests by kind", "error kind", "requests")
                            .bars(
                                    "failed",
                                    List.copyOf(errors.keySet()),
                                    errors.values().stream()
                                            .mapToDouble(Long::doubleValue)
                                            .toArray(),
                                    errors.values().stream()
                                            .map(String::valueOf)
                                            .toList())),
                    List.of("Every failed measured request, by the kind docs/metrics.md defines."));
        }
        return page;
    }

    /** A load of sessions: TTFT, ITL and the prompt's cached share by turn, and the cache's hit rate over the run. */
    private static void sessions(Page page, SessionSummary s, List<RequestsJsonl.Line> requests) {
        page.h2("Sessions");
        int n = s.turns().size();
        double[] turn = new double[n], p50 = new double[n], p95 = new double[n], cached = new double[n];
        double[] itl50 = new double[n], itl99 = new double[n];
        for (int i = 0; i < n; i++) {
            SessionSummary.Turn t = s.turns().get(i);
            turn[i] = t.turn() + 1;
            p50[i] = t.ttftMs().p50();
            p95[i] = t.ttftMs().p95();
            itl50[i] = t.itlMs().p50();
            itl99[i] = t.itlMs().p99();
            cached[i] = t.cachedFraction();
        }
        page.charts(
                List.of(
                        new Chart("TTFT by turn", "turn", "ttft (ms)")
                                .line("p50", turn, p50)
                                .line("p95", turn, p95),
                        new Chart("ITL by turn", "turn", "itl (ms)")
                                .line("p50", turn, itl50)
                                .line("p99", turn, itl99),
                        new Chart("Cached share of the prompt by turn", "turn", "cached ÷ prompt tokens")
                                .fractionY()
                                .line("cached", turn, cached),
                        cacheOverTime(requests, binSeconds(requests))),
                List.of(
                        "TTFT of each turn's own request (not sub-calls or tool rounds), from its origin: while the "
                                + "server's cache holds the history, later turns prefill only their new message.",
                        "Inter-token gaps of each turn's own requests: a turn whose long history is prefilled beside "
                                + "other sessions' decodes stretches them.",
                        "Prompt tokens the server said it served from its prefix cache, over the turn's prompt tokens"
                                + " (requests whose usage said; docs/sessions.md).",
                        "The same share over every measured request that ended in each " + f(binSeconds(requests))
                                + "-s interval of the run: a cache under memory pressure shows it falling."));
    }

    private static Chart cacheOverTime(List<RequestsJsonl.Line> requests, double bin) {
        TreeMap<Long, long[]> bins = new TreeMap<>();
        for (RequestsJsonl.Line r : requests) {
            if (r.warmup() || r.outcome() != RequestRecord.Outcome.COMPLETED || r.cachedTokens() < 0) continue;
            long[] b = bins.computeIfAbsent((long) Math.floor(r.endS() / bin), k -> new long[2]);
            b[0] += r.cachedTokens();
            b[1] += r.isl();
        }
        double[] x = new double[bins.size()], y = new double[bins.size()];
        int i = 0;
        for (var e : bins.entrySet()) {
            x[i] = (e.getKey() + 0.5) * bin;
            y[i++] = e.getValue()[1] == 0 ? Double.NaN : (double) e.getValue()[0] / e.getValue()[1];
        }
        return new Chart("Prefix-cache hit rate over the run", "time since start (s)", "cached ÷ prompt tokens")
                .fractionY()
                .line("cached", x, y);
    }

    /**
     * The width of the over-the-run intervals: about 30 across the run, rounded to 1, 2 or 5 × a power of ten
     * seconds, at least 1 s — a 30-s probe gets 1-s intervals, an hour's 2-min ones.
     */
    static double binSeconds(List<RequestsJsonl.Line> requests) {
        double end = 0;
        for (RequestsJsonl.Line r : requests) if (Double.isFinite(r.endS())) end = Math.max(end, r.endS());
        double raw = Math.max(1, end / 30);
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) if (decade * m >= raw) return decade * m;
        return raw;
    }

    private static Chart serverQueue(List<ServerScrapes.Scrape> scrapes) {
        double[] t = new double[scrapes.size()], run = new double[scrapes.size()], wait = new double[scrapes.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = scrapes.get(i).tSeconds();
            run[i] = scrapes.get(i).gauge(ServerMetrics.KNOWN.get("running"));
            wait[i] = scrapes.get(i).gauge(ServerMetrics.KNOWN.get("waiting"));
        }
        return new Chart("Server: running and waiting requests", "time since start (s)", "requests")
                .line("running", t, run)
                .line("waiting", t, wait);
    }

    private static Chart serverKv(List<ServerScrapes.Scrape> scrapes) {
        double[] t = new double[scrapes.size()], kv = new double[scrapes.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = scrapes.get(i).tSeconds();
            kv[i] = scrapes.get(i).gauge(ServerMetrics.KNOWN.get("kv_cache_usage"));
        }
        return new Chart("Server: KV-cache usage", "time since start (s)", "KV cache used")
                .fractionY()
                .line("KV cache", t, kv);
    }

    private static void metricsTable(Page page, Summary s) {
        page.h2("Summary");
        List<List<String>> rows = new ArrayList<>();
        for (Metric m : Metric.SERIES) {
            Distribution d = s.distribution(m);
            rows.add(List.of(
                    m.key(), f(d.mean()), f(d.p50()), f(d.p90()), f(d.p95()), f(d.p99()), f(d.p999()), f(d.max())));
        }
        page.table(List.of("metric", "mean", "p50", "p90", "p95", "p99", "p99.9", "max"), rows);
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
                        f(s.outputTokensPerS()),
                        f(s.requestsPerS()),
                        f(s.goodputRequestsPerS()),
                        s.slo().isEmpty() ? "no SLO given" : Numbers.pct(s.sloAttainment()),
                        Numbers.pct(s.errorRate()),
                        String.valueOf(s.counts().completed()),
                        String.valueOf(s.counts().failed()),
                        String.valueOf(s.counts().incomplete()),
                        f(s.windowSeconds()))));
        if (!s.slo().isEmpty()) {
            List<List<String>> slo = new ArrayList<>();
            for (Summary.SloResult x : s.slo()) {
                slo.add(List.of(
                        Page.esc(x.slo().text()),
                        x.slo().isRate() ? Numbers.pct(x.observed()) : f(x.observed()) + " ms",
                        x.pass() ? "<span class=\"ok\">pass</span>" : "<span class=\"bad\">FAIL</span>"));
            }
            page.table(List.of("SLO", "observed", "verdict"), slo);
        }
    }

    /** A latency per completed measured request, in ms, sorted. */
    static double[] values(List<RequestsJsonl.Line> requests, String metric, boolean open) {
        List<Double> out = new ArrayList<>();
        for (RequestsJsonl.Line r : requests) {
            if (r.warmup() || r.outcome() != RequestRecord.Outcome.COMPLETED) continue;
            double v = latencyMs(r, metric, open);
            if (Double.isFinite(v)) out.add(v);
        }
        double[] a = out.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a;
    }

    /** One request's ttft, tpot or e2e in ms (NaN where it has none), from its intended send time in open loop. */
    private static double latencyMs(RequestsJsonl.Line r, String metric, boolean open) {
        double origin = open ? r.intendedS() : r.sentS();
        double first = r.firstTokenS(), last = r.lastTokenS();
        double osl = r.osl();
        double v = switch (metric) {
            case "ttft" -> first - origin;
            case "e2e" -> last - origin;
            default -> osl >= 2 ? (last - first) / (osl - 1) : Double.NaN;
        };
        return v * 1000;
    }

    /**
     * TTFT and TPOT p50/p99 of the measured completed requests ending in each {@code bin}-s interval (from their
     * origin, as the distributions above), intervals with fewer than {@value #MIN_PER_BIN} requests left out.
     */
    static Chart latencyOverTime(List<RequestsJsonl.Line> requests, double bin, boolean open) {
        Chart c = new Chart("Latency over the run", "time since start (s)", "ms").logYIfWide();
        for (String metric : List.of("ttft", "tpot")) {
            TreeMap<Long, List<Double>> bins = new TreeMap<>();
            for (RequestsJsonl.Line r : requests) {
                if (r.warmup() || r.outcome() != RequestRecord.Outcome.COMPLETED || !Double.isFinite(r.endS()))
                    continue;
                double v = latencyMs(r, metric, open);
                if (Double.isFinite(v))
                    bins.computeIfAbsent((long) Math.floor(r.endS() / bin), k -> new ArrayList<>())
                            .add(v);
            }
            bins.values().removeIf(l -> l.size() < MIN_PER_BIN);
            for (double q : new double[] {0.5, 0.99}) {
                double[] x = new double[bins.size()], y = new double[bins.size()];
                int i = 0;
                for (var e : bins.entrySet()) {
                    double[] v = e.getValue().stream()
                            .mapToDouble(Double::doubleValue)
                            .sorted()
                            .toArray();
                    x[i] = (e.getKey() + 0.5) * bin;
                    y[i++] = Numbers.percentile(v, q);
                }
                c.line(metric + " p" + Math.round(q * 100), x, y);
            }
        }
        return c;
    }

    private static final int MIN_PER_BIN = 5;

    private static double warmupEnd(List<RequestsJsonl.Line> requests) {
        double end = 0;
        for (RequestsJsonl.Line r : requests) if (r.warmup()) end = Math.max(end, r.sentS());
        return end;
    }

    private static Chart inFlight(List<RequestsJsonl.Line> requests) {
        List<double[]> events = new ArrayList<>();
        for (RequestsJsonl.Line r : requests) {
            double sent = r.sentS(), end = r.endS();
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

    private static Chart tokensPerSecond(List<RequestsJsonl.Line> requests) {
        double end = 0;
        for (RequestsJsonl.Line r : requests) end = Math.max(end, r.lastTokenS() > 0 ? r.lastTokenS() : 0);
        int bins = Math.max(1, (int) Math.ceil(end));
        double[] tokens = new double[bins];
        for (RequestsJsonl.Line r : requests) {
            double a = r.firstTokenS(), b = r.lastTokenS(), osl = r.osl();
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
