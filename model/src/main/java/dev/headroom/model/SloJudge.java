package dev.headroom.model;

import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;

/**
 * The one rule by which an SLO is met: summary.json, the search's margins and its early stop all ask it, so a load
 * point a search passes is one its probe's summary passes. A latency is judged on its statistic of the distribution
 * summary.json keeps (an HdrHistogram of whole microseconds, 3 significant digits; ms = µs ÷ 1000), a rate on the
 * share of measured requests that failed; {@code <} excludes the threshold, {@code <=} includes it. Nothing measured
 * is never met.
 * <p>
 * The margin says how far from the threshold, negative exactly when met. A latency's is {@code (observed −
 * threshold) ÷ threshold}; one at the threshold of an inclusive bound is {@code −Double.MIN_VALUE}. Failures come in
 * whole requests, so a rate's boundary lies halfway between the most failures a pass allows and the fewest a fail
 * has: its margin is {@code (rate − boundary) ÷ scale}, the scale the threshold or one request's share when that is
 * larger. {@code error_rate<=0%} with no failure among 200 is thus −0.5, one failure +0.5.
 */
public final class SloJudge {
    private SloJudge() {}

    /**
     * One SLO judged.
     *
     * @param observed the statistic (ms) or the rate (0..1); NaN when nothing was measured
     * @param met      whether the SLO holds
     * @param margin   distance from the threshold, negative exactly when met (see {@link SloJudge})
     * @param samples  values (latency) or measured requests (rate) it was judged on
     */
    public record Verdict(Slo slo, double observed, boolean met, double margin, long samples) {
        public Summary.SloResult result() {
            return new Summary.SloResult(slo, observed, met);
        }
    }

    /** A latency SLO on the distribution of its values in µs. */
    public static Verdict latency(Slo slo, Histogram micros) {
        long n = micros.getTotalCount();
        if (n == 0) return nothing(slo);
        double observed = slo.stat().of(Distribution.of(micros, 1e-3));
        boolean met = slo.met(observed);
        double margin = (observed - slo.threshold()) / slo.threshold();
        if (met && margin >= 0) margin = -Double.MIN_VALUE; // a tie, which an inclusive bound accepts
        return new Verdict(slo, observed, met, margin, n);
    }

    /** An error-rate SLO: {@code failed} of {@code measured} requests (completed or failed by the server). */
    public static Verdict rate(Slo slo, long failed, long measured) {
        if (measured == 0) return nothing(slo);
        double rate = (double) failed / measured;
        double boundary = (mostFailuresMet(slo, measured) + 0.5) / measured;
        return new Verdict(slo, rate, slo.met(rate), (rate - boundary) / rateScale(slo, measured), measured);
    }

    /** What a rate margin is relative to: the threshold, or one request's share of {@code measured} when larger. */
    public static double rateScale(Slo slo, long measured) {
        return Math.max(slo.threshold(), 1.0 / Math.max(1, measured));
    }

    /** The most failures among {@code measured} requests that still meet a rate SLO; −1 when none does. */
    static long mostFailuresMet(Slo slo, long measured) {
        long k = Math.min(measured, (long) Math.floor(slo.threshold() * measured));
        while (k < measured && slo.met((double) (k + 1) / measured)) k++;
        while (k >= 0 && !slo.met((double) k / measured)) k--;
        return k;
    }

    private static Verdict nothing(Slo slo) {
        return new Verdict(slo, Double.NaN, false, 1, 0);
    }

    /** A histogram as summary.json keeps one, of values in µs. */
    public static Histogram histogram() {
        return new Histogram(3);
    }

    /**
     * The values (µs) a completed request adds to a latency metric's distribution, as summary.json counts them: one
     * for ttft, ttft_from_send, e2e and tpot (none without a first token, tpot none below two tokens), one per gap for
     * itl. A failed request adds none.
     */
    public static void valuesMicros(SloMetric metric, RequestRecord r, boolean openLoop, LongConsumer out) {
        if (!r.succeeded() || r.firstTokenNanos() < 0) return;
        long origin = Metrics.micros(Metrics.origin(r, openLoop));
        long first = Metrics.micros(r.firstTokenNanos());
        switch (metric) {
            case TTFT -> out.accept(Math.max(0, first - origin));
            case TTFT_FROM_SEND -> out.accept(Math.max(0, first - Metrics.micros(r.sentNanos())));
            case E2E -> out.accept(Math.max(0, Metrics.micros(r.lastTokenNanos()) - origin));
            case TPOT -> {
                double tpot = Metrics.tpotMicros(r);
                if (!Double.isNaN(tpot)) out.accept(Math.max(0, Math.round(tpot)));
            }
            case ITL -> {
                for (double gap : Metrics.itlGapsMicros(r)) out.accept(Math.max(0, Math.round(gap)));
            }
            case SESSION, ERROR_RATE -> throw new IllegalStateException(metric.wireName() + " has no request values");
        }
    }
}
