package dev.headroom.reports;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.Distribution;
import dev.headroom.model.Knee;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.Summary;
import dev.headroom.model.UserStart;
import java.util.List;
import java.util.Locale;

/** The compact console view of a probe result: what ran, the distributions, throughput, goodput, SLOs, health. */
public final class ConsoleTable {
    private static final String[][] ROWS = {
        {"ttft_ms", "ttft (ms)"},
        {"ttft_from_send_ms", "ttft from send (ms)"},
        {"itl_ms", "itl (ms)"},
        {"tpot_ms", "tpot (ms)"},
        {"e2e_ms", "e2e (ms)"},
        {"isl", "isl (tokens)"},
        {"osl", "osl (tokens)"}
    };

    private ConsoleTable() {}

    /** A session point's turns (their own requests) and how its sessions ended. */
    static String sessions(SessionSummary s) {
        StringBuilder b = new StringBuilder();
        var n = s.sessions();
        b.append(f(
                "sessions: %d started, %d completed (%d met every SLO), %d failed, %d abandoned at the end · "
                        + "duration p50 %s s, p95 %s s · goodput %s sessions/s%n",
                n.started(),
                n.completed(),
                n.good(),
                n.failed(),
                n.abandoned(),
                n(s.durationS().p50()),
                n(s.durationS().p95()),
                n(s.goodputSessionsPerS())));
        if (s.subCalls().completed() + s.subCalls().failed() > 0) {
            b.append(f(
                    "sub-calls and tool rounds: %d completed, %d failed%n",
                    s.subCalls().completed(), s.subCalls().failed()));
        }
        if (s.droppedTurns() > 0) {
            b.append(f("context: %d history turns dropped to fit the context%n", s.droppedTurns()));
        }
        b.append(f(
                "%-5s %9s %14s %14s %14s %16s %18s %8s%n",
                "turn",
                "requests",
                "ttft p50 (ms)",
                "ttft p95 (ms)",
                "e2e p50 (ms)",
                "isl mean (tok)",
                "prefilled (tok)",
                "cached"));
        for (SessionSummary.Turn t : s.turns()) {
            b.append(f(
                    "%-5d %9d %14s %14s %14s %16s %18s %8s%n",
                    t.turn() + 1,
                    t.completed(),
                    n(t.ttftMs().p50()),
                    n(t.ttftMs().p95()),
                    n(t.e2eMs().p50()),
                    n(t.islTokens().mean()),
                    t.reporting() == 0 ? "n/a" : String.valueOf(t.prefilledTokens() / t.reporting()),
                    t.reporting() == 0 ? "n/a" : f("%.1f%%", t.cachedFraction() * 100)));
        }
        return b.toString();
    }

    public static String probe(ProbeReport report) {
        RunInfo run = report.run();
        Summary s = report.summary();
        StringBuilder b = new StringBuilder();
        b.append(f(
                "headroom probe: %s @ %s%s%n",
                run.model(),
                run.url(),
                run.simulator() == null ? "" : " (embedded simulator: " + run.simulator() + ")"));
        b.append(f(
                "load %s · %s · seed %d · window %.1f s%n",
                run.loadLabel(), run.workload(), run.seed(), s.windowSeconds()));
        UserStart start = report.userStart();
        if (start != null
                && (start.how() != UserStart.How.AT_ONCE || !start.basis().isEmpty())) {
            b.append(
                    switch (start.how()) {
                        case AT_ONCE -> f("users: all at once (%s)%n", start.basis());
                        case RAMP -> f("users: started over a ramp of %s s%n", n(start.rampSeconds()));
                        case ONE_CYCLE ->
                            f(
                                    "users: started over %s s, one request cycle at this load (%s)%n",
                                    n(start.rampSeconds()), start.basis());
                    });
        }
        b.append(f(
                "requests: %d completed, %d failed, %d incomplete (+%d warm-up)%s%n",
                s.counts().completed(),
                s.counts().failed(),
                s.counts().incomplete(),
                s.counts().warmup(),
                s.counts().clientErrors() == 0
                        ? ""
                        : f(" · %d client errors", s.counts().clientErrors())));
        b.append('\n');
        b.append(f(
                "%-20s %9s %9s %9s %9s %9s %9s %9s %9s%n",
                "metric", "mean", "min", "p50", "p90", "p95", "p99", "p99.9", "max"));
        for (String[] row : ROWS) {
            Distribution d = s.distribution(Metric.ofKey(row[0]));
            b.append(f(
                    "%-20s %9s %9s %9s %9s %9s %9s %9s %9s%n",
                    row[1],
                    n(d.mean()),
                    n(d.min()),
                    n(d.p50()),
                    n(d.p90()),
                    n(d.p95()),
                    n(d.p99()),
                    n(d.p999()),
                    n(d.max())));
        }
        b.append('\n');
        b.append(f(
                "throughput: %s output tok/s · %s req/s · %s total tok/s%n",
                n(s.outputTokensPerS()), n(s.requestsPerS()), n(s.totalTokensPerS())));
        // Without an SLO every completed request is good: say so rather than print a 100 % nobody asked for.
        b.append(f(
                "goodput:    %s req/s · %s tok/s · %s · error rate %.2f%%%n",
                n(s.goodputRequestsPerS()),
                n(s.goodputTokensPerS()),
                s.slo().isEmpty() ? "no SLO given" : f("SLO attainment %.1f%%", s.sloAttainment() * 100),
                s.errorRate() * 100));
        if (!s.errors().isEmpty()) b.append("errors:     ").append(s.errors()).append('\n');
        if (report.sessions() != null) b.append(sessions(report.sessions()));
        if (s.oslShort() > 0) {
            b.append(f("warning: %d completed requests produced fewer output tokens than requested%n", s.oslShort()));
        }
        for (Summary.SloResult r : s.slo()) {
            b.append(f("SLO %-22s observed %-12s %s%n", r.slo().text(), observed(r), r.pass() ? "PASS" : "FAIL"));
        }
        Summary.Cache cache = s.cache();
        if (cache.reporting() > 0) {
            b.append(f(
                    "prefix cache: %d of %d prompt tokens cached (%.1f%%) · %d of %d requests hit%n",
                    cache.cachedTokens(),
                    cache.promptTokens(),
                    cache.cachedFraction() * 100,
                    cache.hits(),
                    cache.reporting()));
        }
        ServerMetrics server = report.server();
        if (server != null && !Double.isNaN(server.prefixCacheHitRate())) {
            // The server's own count, beside the client's: a check on both (it includes the warm-up).
            b.append(f(
                    "server's prefix cache (/metrics, warm-up included): %.0f of %.0f prompt tokens looked up hit "
                            + "(%.1f%%)%n",
                    server.counters().get("prefix_cache_hits"),
                    server.counters().get("prefix_cache_queries"),
                    server.prefixCacheHitRate() * 100));
        }
        if (run.connections() != null) {
            b.append(f(
                    "connections: %d opened, %d reused · %s%n",
                    s.connections().opened(), s.connections().reused(), run.connections()));
        }
        for (String w : report.warnings()) b.append("warning: ").append(w).append('\n');
        ClientHealth c = report.client();
        if (run.url() != null && run.url().startsWith("virtual://")) {
            // No requests were sent: nothing lagged or waited for a thread, so there is no figure to print as "- ms".
            b.append("client: none on the virtual clock (no request was sent: no send lag, scheduling delay or "
                    + "timing error to measure)\n");
            return b.toString();
        }
        b.append(f(
                "client: send lag p99 %s ms · scheduling delay p99 %s ms · timing error ≤ %s ms (p99) · CPU %s · GC "
                        + "pause max %s ms · %s%n",
                n(s.distribution(Metric.SEND_LAG_MS).p99()),
                n(c.schedulingDelayMs().p99()),
                n(c.timingErrorMs()),
                Double.isNaN(c.cpuUtil()) ? "n/a" : f("%.0f%%", c.cpuUtil() * 100),
                n(c.gcPauseMaxMs()),
                c.clientBound() ? "CLIENT-BOUND" : "ok"));
        for (String w : c.warnings()) b.append("warning: ").append(w).append('\n');
        return b.toString();
    }

    /** One row per load point, with the marginal throughput and latency change and the knee marked. */
    public static String sweep(List<ProbeReport> points) {
        StringBuilder b = new StringBuilder();
        if (points.isEmpty()) return "no load points\n";
        RunInfo first = points.getFirst().run();
        b.append(f(
                "headroom sweep: %s @ %s%s%n",
                first.model(),
                first.url(),
                first.simulator() == null ? "" : " (embedded simulator: " + first.simulator() + ")"));
        b.append(f("%s · seed %d%n%n", first.workload(), first.seed()));
        b.append(f(
                "%3s %-24s %6s %6s %9s %8s %9s %9s %8s %8s %9s %9s %7s %7s %5s%n",
                "#",
                "load",
                "done",
                "fail",
                "out tok/s",
                "req/s",
                "ttft p50",
                "ttft p99",
                "itl p50",
                "itl p99",
                "e2e p50",
                "e2e p99",
                "Δtok/s",
                "Δe2e",
                "slo"));
        int knee = Knee.find(points.stream().map(ProbeReport::summary).toList());
        for (int i = 0; i < points.size(); i++) {
            Summary s = points.get(i).summary();
            String dTok = "", dLat = "";
            if (i > 0) {
                Summary p = points.get(i - 1).summary();
                dTok = pct(s.outputTokensPerS(), p.outputTokensPerS());
                dLat = pct(
                        s.distribution(Metric.E2E_MS).p50(),
                        p.distribution(Metric.E2E_MS).p50());
            }
            b.append(f(
                    "%3d %-24s %6d %6d %9s %8s %9s %9s %8s %8s %9s %9s %7s %7s %5s%s%n",
                    i + 1,
                    points.get(i).run().load().label(),
                    s.counts().completed(),
                    s.counts().failed(),
                    n(s.outputTokensPerS()),
                    n(s.requestsPerS()),
                    n(s.distribution(Metric.TTFT_MS).p50()),
                    n(s.distribution(Metric.TTFT_MS).p99()),
                    n(s.distribution(Metric.ITL_MS).p50()),
                    n(s.distribution(Metric.ITL_MS).p99()),
                    n(s.distribution(Metric.E2E_MS).p50()),
                    n(s.distribution(Metric.E2E_MS).p99()),
                    dTok,
                    dLat,
                    s.slo().isEmpty() ? "-" : s.sloPass() ? "pass" : "FAIL",
                    (i == knee ? "  ◀ knee" : "") + (points.get(i).client().clientBound() ? "  (client-bound)" : "")));
        }
        b.append(f("%nknee: the load of maximum output tok/s ÷ e2e p50 — past it, throughput stops paying for "
                + "latency.%n"));
        for (int i = 0; i < points.size(); i++) {
            for (String w : points.get(i).warnings()) b.append(f("warning: point %d: %s%n", i + 1, w));
        }
        return b.toString();
    }

    private static String pct(double now, double before) {
        if (Double.isNaN(now) || Double.isNaN(before) || before == 0) return "-";
        return f("%+.0f%%", (now / before - 1) * 100);
    }

    /** An SLO's observed value with its unit: a rate in %, a latency in ms. */
    static String observed(Summary.SloResult r) {
        return r.slo().isRate() ? f("%.2f%%", r.observed() * 100) : n(r.observed()) + " ms";
    }

    /** A number with 3 significant digits below 100, no decimals above; "-" for none. */
    public static String n(double v) {
        if (Double.isNaN(v)) return "-";
        double a = Math.abs(v);
        if (a >= 100) return f("%.0f", v);
        if (a >= 10) return f("%.1f", v);
        if (a >= 1) return f("%.2f", v);
        return f("%.3f", v);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
