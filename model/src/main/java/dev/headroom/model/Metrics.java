package dev.headroom.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The one place Headroom's metrics are defined (docs/metrics.md says the same in words).
 * <ul>
 *   <li>origin: the intended send time in open loop (so queueing before the send is never hidden), the actual
 *       send time in closed loop;</li>
 *   <li>{@code ttft} = first content chunk − origin; {@code ttft_from_send} = first content chunk − actual send;</li>
 *   <li>{@code e2e} = last content chunk − origin; {@code tpot} = (e2e − ttft) / (osl − 1), per request, osl ≥ 2;</li>
 *   <li>{@code itl}: every gap between consecutive content chunks divided by the tokens in the later chunk,
 *       pooled over all requests;</li>
 *   <li>window: from the earliest origin to the latest end among measured (non-warm-up) requests that
 *       completed or failed; throughputs count completed requests only.</li>
 * </ul>
 */
public final class Metrics {
    /** More cached prompt tokens than this make a request a cache hit: beyond any chat template's common prefix. */
    public static final int CACHE_HIT_TOKENS = 64;

    public static final List<String> KEYS =
            List.of("ttft_ms", "ttft_from_send_ms", "itl_ms", "tpot_ms", "e2e_ms", "isl", "osl", "send_lag_ms");

    private Metrics() {}

    /** Origin of a request's latencies under the given load mode. */
    public static long origin(RequestRecord r, boolean openLoop) {
        return openLoop ? r.intendedNanos() : r.sentNanos();
    }

    public static Summary summarize(List<RequestRecord> records, boolean openLoop, List<Slo> slos) {
        Map<String, Histogram> h = new LinkedHashMap<>();
        for (String k : KEYS) h.put(k, new Histogram(3));
        long completed = 0, failed = 0, incomplete = 0, warmup = 0, clientErrors = 0, good = 0, oslShort = 0;
        long cacheReporting = 0, cachePrompt = 0, cached = 0, cacheHits = 0, opened = 0, reused = 0;
        long requestedIsl = 0, requestedIslCount = 0;
        long outputTokens = 0, totalTokens = 0, goodTokens = 0;
        long windowStart = Long.MAX_VALUE, windowEnd = Long.MIN_VALUE;
        Map<String, Long> errors = new TreeMap<>();
        for (RequestRecord r : records) {
            if (r.connection() == RequestRecord.Connection.NEW) opened++;
            if (r.connection() == RequestRecord.Connection.REUSED) reused++;
            if (r.outcome() == RequestRecord.Outcome.CLIENT_ERROR) {
                clientErrors++;
                continue;
            }
            if (r.warmup()) {
                warmup++;
                continue;
            }
            switch (r.outcome()) {
                case INCOMPLETE -> {
                    incomplete++;
                    continue;
                }
                case FAILED -> {
                    failed++;
                    errors.merge(r.failure().kind().wireName(), 1L, Long::sum);
                }
                case COMPLETED -> completed++;
                case CLIENT_ERROR -> throw new IllegalStateException("counted above");
            }
            long origin = origin(r, openLoop);
            windowStart = Math.min(windowStart, origin);
            windowEnd = Math.max(windowEnd, r.endNanos());
            record(h.get("send_lag_ms"), Math.max(0, r.sendLagNanos()) / 1000);
            if (!r.succeeded()) continue;
            outputTokens += r.completionTokens();
            totalTokens += r.completionTokens() + r.promptTokens();
            if (r.requestedOutputTokens() > 0 && r.completionTokens() < r.requestedOutputTokens()) oslShort++;
            record(h.get("isl"), r.promptTokens());
            if (r.requestedInputTokens() > 0) {
                requestedIsl += r.requestedInputTokens();
                requestedIslCount++;
            }
            if (r.cachedTokens() >= 0) {
                cacheReporting++;
                cachePrompt += r.promptTokens();
                cached += r.cachedTokens();
                if (r.cachedTokens() > CACHE_HIT_TOKENS) cacheHits++;
            }
            record(h.get("osl"), r.completionTokens());
            if (r.firstTokenNanos() >= 0) {
                record(h.get("ttft_ms"), (r.firstTokenNanos() - origin) / 1000);
                record(h.get("ttft_from_send_ms"), (r.firstTokenNanos() - r.sentNanos()) / 1000);
                record(h.get("e2e_ms"), (r.lastTokenNanos() - origin) / 1000);
            }
            double tpot = tpotNanos(r);
            if (!Double.isNaN(tpot)) record(h.get("tpot_ms"), Math.round(tpot / 1000));
            for (double gap : itlGapsNanos(r)) record(h.get("itl_ms"), Math.round(gap / 1000));
            if (isGood(r, openLoop, slos)) {
                good++;
                goodTokens += r.completionTokens();
            }
        }
        double window = windowEnd > windowStart ? (windowEnd - windowStart) / 1e9 : 0;
        Map<String, Distribution> d = new LinkedHashMap<>();
        for (String k : KEYS) d.put(k, Distribution.of(h.get(k), k.endsWith("_ms") ? 1e-3 : 1));
        long ended = completed + failed;
        double errorRate = ended == 0 ? 0 : (double) failed / ended;
        double attainment = ended == 0 ? 0 : (double) good / ended;
        List<Summary.SloResult> results = new ArrayList<>();
        boolean pass = true;
        for (Slo slo : slos) {
            double observed =
                    slo.isRate() ? errorRate : slo.stat().of(d.get(slo.metric().distributionKey()));
            boolean ok = !Double.isNaN(observed) && slo.met(observed);
            results.add(new Summary.SloResult(slo, observed, ok));
            pass &= ok;
        }
        return new Summary(
                new Summary.Counts(completed, failed, incomplete, warmup, clientErrors),
                window,
                d,
                per(outputTokens, window),
                per(completed, window),
                per(totalTokens, window),
                per(good, window),
                per(goodTokens, window),
                attainment,
                errorRate,
                List.copyOf(results),
                pass,
                errors,
                oslShort,
                h,
                new Summary.Cache(cacheReporting, cachePrompt, cached, cacheHits),
                new Summary.Connections(opened, reused, clientErrors),
                requestedIslCount == 0 ? Double.NaN : (double) requestedIsl / requestedIslCount);
    }

    /** (e2e − ttft) / (osl − 1) in nanoseconds, or NaN when osl < 2. */
    public static double tpotNanos(RequestRecord r) {
        if (r.completionTokens() < 2 || r.firstTokenNanos() < 0) return Double.NaN;
        return (double) (r.lastTokenNanos() - r.firstTokenNanos()) / (r.completionTokens() - 1);
    }

    /** Each gap between consecutive content chunks, divided by the tokens in the later chunk. */
    public static double[] itlGapsNanos(RequestRecord r) {
        long[] t = r.chunkNanos();
        int[] n = r.chunkTokens();
        double[] gaps = new double[Math.max(0, t.length - 1)];
        for (int i = 1; i < t.length; i++) gaps[i - 1] = (double) (t[i] - t[i - 1]) / Math.max(1, n[i]);
        return gaps;
    }

    /**
     * A request is good when it completed and meets every latency SLO in its per-request form: its own ttft,
     * tpot or e2e below the threshold; for itl, the SLO's statistic of its own gaps.
     */
    public static boolean isGood(RequestRecord r, boolean openLoop, List<Slo> slos) {
        if (!r.succeeded()) return false;
        for (Slo slo : slos) {
            if (slo.isRate()) continue;
            double ms = slo.metric() == SloMetric.ITL
                    ? slo.stat().of(itlGapsNanos(r)) / 1e6
                    : slo.metric().valueMs(r, openLoop);
            // A request with no such value (one token: no tpot, no gaps) is not held to that objective.
            if (!Double.isNaN(ms) && !slo.met(ms)) return false;
        }
        return true;
    }

    private static void record(Histogram h, long value) {
        h.recordValue(Math.max(0, value));
    }

    private static double per(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }
}
