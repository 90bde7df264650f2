package dev.headroom.reports;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.Distribution;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.Summary;

import java.util.Locale;

/** The compact console view of a probe result: what ran, the distributions, throughput, goodput, SLOs, health. */
public final class ConsoleTable {
    private static final String[][] ROWS = {
            {"ttft_ms", "ttft (ms)"}, {"ttft_from_send_ms", "ttft from send (ms)"}, {"itl_ms", "itl (ms)"},
            {"tpot_ms", "tpot (ms)"}, {"e2e_ms", "e2e (ms)"}, {"isl", "isl (tokens)"}, {"osl", "osl (tokens)"}};

    private ConsoleTable() {}

    public static String probe(ProbeReport report) {
        RunInfo run = report.run();
        Summary s = report.summary();
        StringBuilder b = new StringBuilder();
        b.append(f("headroom probe: %s @ %s%s%n", run.model(), run.url(),
                run.simulator() == null ? "" : " (embedded simulator: " + run.simulator() + ")"));
        b.append(f("load %s · %s · seed %d · window %.1f s%n", run.load().label(), run.workload(), run.seed(),
                s.windowSeconds()));
        b.append(f("requests: %d completed, %d failed, %d incomplete (+%d warm-up)%n", s.counts().completed(),
                s.counts().failed(), s.counts().incomplete(), s.counts().warmup()));
        b.append('\n');
        b.append(f("%-20s %9s %9s %9s %9s %9s %9s %9s %9s%n", "metric", "mean", "min", "p50", "p90", "p95", "p99",
                "p99.9", "max"));
        for (String[] row : ROWS) {
            Distribution d = s.distribution(row[0]);
            b.append(f("%-20s %9s %9s %9s %9s %9s %9s %9s %9s%n", row[1], n(d.mean()), n(d.min()), n(d.p50()),
                    n(d.p90()), n(d.p95()), n(d.p99()), n(d.p999()), n(d.max())));
        }
        b.append('\n');
        b.append(f("throughput: %s output tok/s · %s req/s · %s total tok/s%n", n(s.outputTokensPerS()),
                n(s.requestsPerS()), n(s.totalTokensPerS())));
        b.append(f("goodput:    %s req/s · %s tok/s · SLO attainment %.1f%% · error rate %.2f%%%n",
                n(s.goodputRequestsPerS()), n(s.goodputTokensPerS()), s.sloAttainment() * 100, s.errorRate() * 100));
        if (!s.errors().isEmpty()) b.append("errors:     ").append(s.errors()).append('\n');
        if (s.oslShort() > 0) {
            b.append(f("warning: %d completed requests produced fewer output tokens than requested%n", s.oslShort()));
        }
        for (Summary.SloResult r : s.slo()) {
            String observed = r.slo().isRate() ? f("%.2f%%", r.observed() * 100) : n(r.observed()) + " ms";
            b.append(f("SLO %-22s observed %-12s %s%n", r.slo().text(), observed, r.pass() ? "PASS" : "FAIL"));
        }
        ClientHealth c = report.client();
        b.append(f("client: send lag p99 %s ms · CPU %s · GC pause max %s ms · %s%n",
                n(s.distribution("send_lag_ms").p99()), Double.isNaN(c.cpuUtil()) ? "n/a" : f("%.0f%%", c.cpuUtil() * 100),
                n(c.gcPauseMaxMs()), c.clientBound() ? "CLIENT-BOUND" : "ok"));
        for (String w : c.warnings()) b.append("warning: ").append(w).append('\n');
        return b.toString();
    }

    /** A number with 3 significant digits below 100, no decimals above; "-" for none. */
    static String n(double v) {
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
