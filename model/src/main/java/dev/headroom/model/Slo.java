package dev.headroom.model;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service-level objective, written {@code METRIC:STAT<THRESHOLD} for latencies (e.g. {@code ttft:p95<500ms},
 * {@code itl:p99<=50ms}, {@code e2e:p99<10s}, {@code session:p95<60s} for a whole session's duration) or
 * {@code RATE<THRESHOLD} for rates ({@code error_rate<1%}).
 * <p>
 * The aggregate form is checked on the run's distribution: the STAT of all requests' values. The per-request
 * form, used for goodput, applies the same threshold to each request: its own ttft, tpot or e2e; for itl, the
 * STAT of that request's own inter-token gaps.
 *
 * @param metric    what it constrains: a latency or the error rate
 * @param stat      the latency's statistic; null for a rate
 * @param inclusive true for {@code <=}, false for {@code <}
 * @param threshold milliseconds for latencies, a fraction (0..1) for rates
 */
public record Slo(SloMetric metric, SloStat stat, boolean inclusive, double threshold) {
    private static final Pattern LATENCY = Pattern.compile(
            "([a-z_0-9]+):(mean|min|max|p50|p90|p95|p99|p99\\.9|p999)\\s*(<=|<)\\s*([0-9.]+)\\s*(us|ms|s)?");
    private static final Pattern RATE = Pattern.compile("([a-z_]+)\\s*(<=|<)\\s*([0-9.]+)\\s*(%)?");

    public Slo {
        if (metric == null) throw new IllegalArgumentException("an SLO needs a metric");
        if ((stat == null) != metric.isRate()) {
            throw new BadInputException("SLO on " + metric.wireName() + ": a latency takes a statistic, a rate none");
        }
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new BadInputException("SLO threshold must be a non-negative number, got " + threshold);
        }
        String op = inclusive ? "<=" : "<";
        if (!metric.isRate() && threshold == 0) {
            throw new BadInputException("SLO " + metric.wireName() + ":" + stat.text() + op
                    + "0ms can never be met: a latency threshold must be above 0 (e.g. 500ms)");
        }
        if (metric.isRate() && threshold > 1) {
            throw new BadInputException("SLO " + metric.wireName() + op + trim(threshold * 100)
                    + "%: a rate is at most 100%; write e.g. " + metric.wireName() + "<1%");
        }
        if (metric.isRate() && threshold == 0 && !inclusive) {
            throw new BadInputException("SLO " + metric.wireName() + "<0% can never be met; write " + metric.wireName()
                    + "<=0% for no failures at all");
        }
    }

    public boolean isRate() {
        return metric.isRate();
    }

    /** True when {@code observed} meets the objective. */
    public boolean met(double observed) {
        return inclusive ? observed <= threshold : observed < threshold;
    }

    /** Parses the textual form; the error names the text and shows valid examples. */
    public static Slo parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = LATENCY.matcher(s);
        try {
            if (m.matches()) {
                double v = Double.parseDouble(m.group(4));
                String unit = m.group(5) == null ? "ms" : m.group(5);
                double ms = switch (unit) {
                    case "us" -> v / 1000;
                    case "s" -> v * 1000;
                    default -> v;
                };
                SloMetric metric = SloMetric.find(m.group(1));
                if (metric == null || metric.isRate()) throw bad(text);
                return new Slo(metric, SloStat.find(m.group(2)), m.group(3).equals("<="), ms);
            }
            m = RATE.matcher(s);
            SloMetric rate = m.matches() ? SloMetric.find(m.group(1)) : null;
            if (rate != null && rate.isRate()) {
                double v = Double.parseDouble(m.group(3));
                return new Slo(rate, null, m.group(2).equals("<="), m.group(4) != null ? v / 100 : v);
            }
        } catch (NumberFormatException e) {
            throw bad(text);
        }
        throw bad(text);
    }

    private static IllegalArgumentException bad(String text) {
        return new BadInputException("bad SLO '" + text + "': write METRIC:STAT<THRESHOLD with METRIC one of "
                + SloMetric.latencyNames() + " and STAT one of " + SloStat.names()
                + " (e.g. ttft:p95<500ms, itl:p99<=50ms, e2e:p99<10s), or error_rate<1%");
    }

    /** Refuses a session SLO ({@code session:p95<60s}) where the load is not sessions. */
    public static void requireSessionsFor(List<Slo> slos, boolean sessions) {
        if (sessions) return;
        for (Slo slo : slos) {
            if (slo.metric().perSession()) {
                throw new BadInputException(
                        "SLO " + slo.text() + " judges whole sessions, and this load is independent requests: "
                                + "give --sessions or --session-rate (probe) or --load-unit sessions (search), "
                                + "or drop it");
            }
        }
    }

    /** The canonical text, e.g. {@code ttft:p95<500ms}. */
    public String text() {
        String op = inclusive ? "<=" : "<";
        if (isRate()) return metric.wireName() + op + trim(threshold * 100) + "%";
        return metric.wireName() + ":" + stat.text() + op + trim(threshold) + "ms";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
