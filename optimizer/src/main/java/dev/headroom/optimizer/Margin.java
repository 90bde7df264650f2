package dev.headroom.optimizer;

import dev.headroom.model.BadInputException;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionRecorder;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.SloJudge;
import dev.headroom.model.SloMetric;
import dev.headroom.model.SloStat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * How far a load point is from one SLO: {@link SloJudge}'s margin (negative exactly when met), with a
 * standard error from the per-request data — for a percentile, the order-statistic 95 % interval of that
 * percentile (binomial ranks; a side whose rank falls past the sample is taken as wide as the other), for a mean
 * its standard error, for the error rate the binomial one — each with the effective sample size rather than the
 * count: requests that share a server's batches are correlated (in one closed-loop probe a run of neighbours all
 * queue behind the same prefill burst), and counting them as independent made 200-request probes claim a p95 to
 * ±0.5 % that a repeat missed by 20 %.
 */
public record Margin(Slo slo, double value, double se, int samples) {

    public boolean passing() {
        return value < 0;
    }

    /** Computes the margin of {@code slo} over the measured (non-warm-up) records of independent requests. */
    public static Margin of(Slo slo, List<RequestRecord> records, boolean openLoop) {
        return of(slo, records, openLoop, null);
    }

    /**
     * Computes the margin of {@code slo} over the measured (non-warm-up) records; a session SLO over the durations of
     * the completed sessions of {@code sessions} among them (none completed: as failing as it gets).
     */
    public static Margin of(Slo slo, List<RequestRecord> records, boolean openLoop, SessionSpec sessions) {
        if (slo.metric().perSession()) {
            if (sessions == null)
                throw new BadInputException("SLO " + slo.text() + " judges sessions; the load is not sessions");
            return ofValues(slo, SessionRecorder.durationsMs(records, sessions, openLoop));
        }
        List<RequestRecord> measured =
                records.stream().filter(r -> !r.warmup() && r.measured()).toList();
        if (slo.isRate()) {
            long failed = measured.stream().filter(RequestRecord::failed).count();
            int n = measured.size();
            if (n == 0) return new Margin(slo, 1, 1, 0); // nothing measured: as failing as it gets
            SloJudge.Verdict verdict = SloJudge.rate(slo, failed, n);
            double rate = verdict.observed();
            double se = Math.sqrt((rate * (1 - rate) + 1.0 / n) / n) / SloJudge.rateScale(slo, n);
            return new Margin(slo, verdict.margin(), se, n);
        }
        return ofValues(slo, values(slo.metric(), measured, openLoop));
    }

    /** The margin of a latency SLO over its values (ms) in the order they were measured. */
    private static Margin ofValues(Slo slo, double[] inOrder) {
        double t = slo.threshold();
        if (inOrder.length == 0) return new Margin(slo, 1, 1, 0); // nothing completed: as failing as it gets
        double[] v = inOrder.clone();
        Arrays.sort(v);
        Histogram micros = SloJudge.histogram();
        for (double x : v) micros.recordValue(Math.round(x * 1e3));
        // The value is the judge's (summary.json's); the exact values give its noise.
        double margin = SloJudge.latency(slo, micros).margin();
        if (slo.stat() == SloStat.MEAN) {
            double mean = Arrays.stream(v).average().orElse(Double.NaN);
            double sd =
                    Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / Math.max(1, v.length - 1));
            return new Margin(slo, margin, sd / Math.sqrt(EffectiveSize.of(inOrder)) / t, v.length);
        }
        double q = slo.stat().quantile();
        int n = v.length;
        double observed = v[rank(n, q) - 1];
        // Order-statistic interval: ranks between the binomial 2.5 % and 97.5 % points of Bin(m, q), m the effective
        // size (of the exceedance indicator, which is what the percentile's rank counts), scaled back to n ranks.
        double[] above = new double[n];
        for (int i = 0; i < n; i++) above[i] = inOrder[i] > observed ? 1 : 0;
        int m = (int) Math.max(1, Math.round(EffectiveSize.of(above)));
        BinomialDistribution bin = new BinomialDistribution(null, m, q);
        int loRank = (int) Math.floor((double) bin.inverseCumulativeProbability(0.025) * n / m);
        int hiRank = (int) Math.ceil((bin.inverseCumulativeProbability(0.975) + 1.0) * n / m);
        int lo = Math.max(1, loRank), hi = Math.min(n, hiRank);
        double width = v[hi - 1] - v[lo - 1];
        // A rank past the sample clips that side of the interval: take it to be at least as wide as the other side.
        if (hiRank > n) width = Math.max(width, 2 * (observed - v[lo - 1]));
        if (loRank < 1) width = Math.max(width, 2 * (v[hi - 1] - observed));
        double se = width / (2 * 1.96) / t;
        return new Margin(slo, margin, Math.max(se, 1e-6), n);
    }

    /** Per-request values (ms) of a latency metric; itl pools every gap. */
    static double[] values(SloMetric metric, List<RequestRecord> records, boolean openLoop) {
        List<Double> out = new ArrayList<>();
        for (RequestRecord r : records) SloJudge.valuesMicros(metric, r, openLoop, us -> out.add(us / 1e3));
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The fewest samples whose q-percentile has an order-statistic 95 % interval inside the sample: below it the
     * interval's upper (or lower) rank lies past the largest (smallest) value, the width is clipped, and the standard
     * error understated — a p95 from 40 requests is their second largest, and its "interval" ends at their largest.
     * For p50 6, p90 36, p95 72, p99 368, p99.9 3,688; for min and max (never inside) 1.
     */
    static int samplesToResolve(double q) {
        if (q <= 0 || q >= 1) return 1;
        for (int n = 1; ; n++) {
            BinomialDistribution bin = new BinomialDistribution(null, n, q);
            if (bin.inverseCumulativeProbability(0.025) >= 1 && bin.inverseCumulativeProbability(0.975) + 1 <= n)
                return n;
        }
    }

    /** Nearest-rank position (1-based) of quantile q among n sorted values. */
    static int rank(int n, double q) {
        return Math.max(1, Math.min(n, (int) Math.ceil(q * n)));
    }
}
