package dev.headroom.model;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service-level objective, written {@code METRIC:STAT<THRESHOLD} for latencies (e.g. {@code ttft:p95<500ms},
 * {@code itl:p99<=50ms}, {@code e2e:p99<10s}) or {@code RATE<THRESHOLD} for rates ({@code error_rate<1%}).
 * <p>
 * The aggregate form is checked on the run's distribution: the STAT of all requests' values. The per-request
 * form, used for goodput, applies the same threshold to each request: its own ttft, tpot or e2e; for itl, the
 * STAT of that request's own inter-token gaps.
 *
 * @param metric    ttft, ttft_from_send, itl, tpot, e2e, or error_rate
 * @param stat      mean, min, max, p50, p90, p95, p99 or p99.9; null for a rate
 * @param inclusive true for {@code <=}, false for {@code <}
 * @param threshold milliseconds for latencies, a fraction (0..1) for rates
 */
public record Slo(String metric, String stat, boolean inclusive, double threshold) {
    public static final List<String> LATENCY_METRICS = List.of("ttft", "ttft_from_send", "itl", "tpot", "e2e");
    public static final List<String> RATE_METRICS = List.of("error_rate");
    public static final List<String> STATS = List.of("mean", "min", "max", "p50", "p90", "p95", "p99", "p99.9");
    private static final Pattern LATENCY = Pattern.compile("([a-z_0-9]+):(mean|min|max|p50|p90|p95|p99|p99\\.9|p999)\\s*(<=|<)\\s*([0-9.]+)\\s*(us|ms|s)?");
    private static final Pattern RATE = Pattern.compile("([a-z_]+)\\s*(<=|<)\\s*([0-9.]+)\\s*(%)?");

    public Slo {
        if (!LATENCY_METRICS.contains(metric) && !RATE_METRICS.contains(metric)) {
            throw new IllegalArgumentException("unknown SLO metric '" + metric + "': valid are "
                    + String.join(", ", LATENCY_METRICS) + ", " + String.join(", ", RATE_METRICS));
        }
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("SLO threshold must be a non-negative number, got " + threshold);
        }
    }

    public boolean isRate() {
        return stat == null;
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
                String stat = m.group(2).equals("p999") ? "p99.9" : m.group(2);
                if (!LATENCY_METRICS.contains(m.group(1))) throw bad(text);
                return new Slo(m.group(1), stat, m.group(3).equals("<="), ms);
            }
            m = RATE.matcher(s);
            if (m.matches() && RATE_METRICS.contains(m.group(1))) {
                double v = Double.parseDouble(m.group(3));
                return new Slo(m.group(1), null, m.group(2).equals("<="), m.group(4) != null ? v / 100 : v);
            }
        } catch (NumberFormatException e) {
            throw bad(text);
        }
        throw bad(text);
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("bad SLO '" + text + "': write METRIC:STAT<THRESHOLD with METRIC one of "
                + String.join(", ", LATENCY_METRICS) + " and STAT one of " + String.join(", ", STATS)
                + " (e.g. ttft:p95<500ms, itl:p99<=50ms, e2e:p99<10s), or error_rate<1%");
    }

    /** The canonical text, e.g. {@code ttft:p95<500ms}. */
    public String text() {
        String op = inclusive ? "<=" : "<";
        if (isRate()) return metric + op + trim(threshold * 100) + "%";
        return metric + ":" + stat + op + trim(threshold) + "ms";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
