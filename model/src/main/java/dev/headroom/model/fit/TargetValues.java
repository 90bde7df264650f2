package dev.headroom.model.fit;

import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SloMetric;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The values of some {@link Target}s in a list of records, computed as {@link Metrics} defines them but only those
 * asked for: a fit runs thousands of load points and needs a handful of numbers from each, not a whole summary.
 * Latency statistics are exact (nearest rank) except itl's percentiles, read from a histogram as the summary does.
 */
public final class TargetValues {
    private TargetValues() {}

    /** Each target's value in {@code records} (NaN where none can be computed, e.g. no completed request). */
    public static double[] of(List<RequestRecord> records, boolean openLoop, List<Target> targets) {
        long windowStart = Long.MAX_VALUE, windowEnd = Long.MIN_VALUE, output = 0, total = 0;
        int completed = 0;
        for (RequestRecord r : records) {
            if (r.warmup() || !(r.succeeded() || r.outcome() == RequestRecord.Outcome.FAILED)) continue;
            windowStart = Math.min(windowStart, Metrics.micros(Metrics.origin(r, openLoop)));
            windowEnd = Math.max(windowEnd, Metrics.micros(r.endNanos()));
            if (!r.succeeded()) continue;
            completed++;
            output += r.completionTokens();
            total += r.completionTokens() + r.promptTokens();
        }
        double window = windowEnd > windowStart ? (windowEnd - windowStart) / 1e6 : Double.NaN;
        double[] out = new double[targets.size()];
        for (int t = 0; t < out.length; t++) {
            Target target = targets.get(t);
            if (target.window() != null) {
                out[t] = windowed(records, target.metric(), target.window());
                continue;
            }
            out[t] = switch (target.metric()) {
                case OUTPUT_TOKENS_PER_S -> output / window;
                case TOTAL_TOKENS_PER_S -> total / window;
                case REQUESTS_PER_S -> completed / window;
                case ITL -> itl(records, target);
                case TTFT -> stat(records, openLoop, SloMetric.TTFT, target);
                case TPOT -> stat(records, openLoop, SloMetric.TPOT, target);
                case E2E -> stat(records, openLoop, SloMetric.E2E, target);
            };
        }
        return out;
    }

    /**
     * A rate over {@code w}: from the {@code firstTokens}-th first token of the run to its {@code finished}-th end;
     * output tokens counted as their chunks arrive, prompt tokens and requests as their first token and end do.
     */
    static double windowed(List<RequestRecord> records, ObservedMetric metric, RateWindow w) {
        long[] first = new long[records.size()];
        long[] ends = new long[records.size()];
        int nf = 0, ne = 0;
        for (RequestRecord r : records) {
            if (r.warmup()) continue;
            if (r.firstTokenNanos() >= 0) first[nf++] = r.firstTokenNanos();
            if (r.succeeded()) ends[ne++] = r.endNanos();
        }
        if (nf < w.firstTokens() || ne < w.finished()) return Double.NaN;
        java.util.Arrays.sort(first, 0, nf);
        java.util.Arrays.sort(ends, 0, ne);
        long from = first[w.firstTokens() - 1], to = ends[w.finished() - 1];
        if (to <= from) return Double.NaN;
        double count = 0;
        for (RequestRecord r : records) {
            if (r.warmup()) continue;
            switch (metric) {
                case REQUESTS_PER_S -> {
                    if (r.succeeded() && r.endNanos() > from && r.endNanos() <= to) count++;
                }
                case OUTPUT_TOKENS_PER_S, TOTAL_TOKENS_PER_S -> {
                    long[] at = r.chunkNanos();
                    for (int i = 0; i < at.length; i++) {
                        if (at[i] > from && at[i] <= to) count += r.chunkTokens()[i];
                    }
                    long t0 = r.firstTokenNanos();
                    if (metric == ObservedMetric.TOTAL_TOKENS_PER_S && t0 > from && t0 <= to) {
                        count += r.promptTokens();
                    }
                }
                default -> throw new IllegalArgumentException("a window applies to a rate, not " + metric);
            }
        }
        return count / ((to - from) / 1e9);
    }

    private static double stat(List<RequestRecord> records, boolean openLoop, SloMetric metric, Target target) {
        double[] v = new double[records.size()];
        int n = 0;
        for (RequestRecord r : records) {
            if (r.warmup() || !r.succeeded()) continue;
            double ms = metric.valueMs(r, openLoop);
            if (!Double.isNaN(ms)) v[n++] = ms;
        }
        return n == 0 ? Double.NaN : target.stat().of(java.util.Arrays.copyOf(v, n));
    }

    private static double itl(List<RequestRecord> records, Target target) {
        boolean mean = target.stat() == dev.headroom.model.SloStat.MEAN;
        Histogram h = mean ? null : new Histogram(3);
        double sum = 0;
        long count = 0;
        for (RequestRecord r : records) {
            if (r.warmup() || !r.succeeded()) continue;
            for (int i = 1; i < r.chunkNanos().length; i++) {
                double gap = Metrics.itlGapMicros(r, i);
                sum += Math.round(gap);
                count++;
                if (h != null) h.recordValue(Math.max(0, Math.round(gap)));
            }
        }
        if (count == 0) return Double.NaN;
        if (mean) return sum / count / 1e3;
        return h.getValueAtPercentile(target.stat().quantile() * 100) / 1e3;
    }
}
