package dev.headroom.model;

import java.util.List;

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

    private Metrics() {}

    /** Origin of a request's latencies under the given load mode. */
    public static long origin(RequestRecord r, boolean openLoop) {
        return openLoop ? r.intendedNanos() : r.sentNanos();
    }

    /**
     * The metrics of {@code records}, as a {@link MetricsRecorder} fed them one by one computes them (without its
     * time series, which a summary does not hold).
     */
    public static Summary summarize(List<RequestRecord> records, boolean openLoop, List<Slo> slos) {
        MetricsRecorder m = new MetricsRecorder(openLoop, slos, false);
        records.forEach(m);
        return m.summary();
    }

    /**
     * A time on the run's clock in whole microseconds, the resolution of every metric and of requests.jsonl, so that
     * metrics rebuilt from requests.jsonl are those computed while the run measured.
     */
    public static long micros(long nanos) {
        return Math.round(nanos / 1e3);
    }

    /** (e2e − ttft) / (osl − 1) in microseconds, or NaN when osl < 2. */
    public static double tpotMicros(RequestRecord r) {
        if (r.completionTokens() < 2 || r.firstTokenNanos() < 0) return Double.NaN;
        return (double) (micros(r.lastTokenNanos()) - micros(r.firstTokenNanos())) / (r.completionTokens() - 1);
    }

    /** Each gap between consecutive content chunks in microseconds, divided by the tokens in the later chunk. */
    public static double[] itlGapsMicros(RequestRecord r) {
        double[] gaps = new double[Math.max(0, r.chunkNanos().length - 1)];
        for (int i = 1; i <= gaps.length; i++) gaps[i - 1] = itlGapMicros(r, i);
        return gaps;
    }

    /** The gap before content chunk {@code i} (≥ 1) in microseconds, divided by the tokens in that chunk. */
    public static double itlGapMicros(RequestRecord r, int i) {
        long[] t = r.chunkNanos();
        return (double) (micros(t[i]) - micros(t[i - 1])) / Math.max(1, r.chunkTokens()[i]);
    }

    /**
     * A request is good when it completed and meets every latency SLO in its per-request form: its own ttft,
     * tpot or e2e below the threshold; for itl, the SLO's statistic of its own gaps.
     */
    public static boolean isGood(RequestRecord r, boolean openLoop, List<Slo> slos) {
        if (!r.succeeded()) return false;
        for (Slo slo : slos) {
            if (slo.isRate() || slo.metric().perSession()) continue;
            double ms = slo.metric() == SloMetric.ITL
                    ? slo.stat().of(itlGapsMicros(r)) / 1e3
                    : slo.metric().valueMs(r, openLoop);
            // A request with no such value (one token: no tpot, no gaps) is not held to that objective.
            if (!Double.isNaN(ms) && !slo.met(ms)) return false;
        }
        return true;
    }
}
