package dev.headroom.optimizer.fit;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.model.fit.TargetValues;
import java.util.ArrayList;
import java.util.List;

/**
 * The points a calibration measures after its fit, to judge the twin where it was not fitted: other prompt and answer
 * lengths than any probe's, at loads between the batch probes and saturation. Each reads TTFT p50 and p95, TPOT p50
 * and output tokens/s, and the twin's error on each is what to expect at a shape nobody probed.
 */
public final class CheckPoints {
    /** What a check point reads. */
    public static final List<CalibrationPlan.Measured> READS = List.of(
            new CalibrationPlan.Measured(ObservedMetric.TTFT, SloStat.P50),
            new CalibrationPlan.Measured(ObservedMetric.TTFT, SloStat.P95),
            new CalibrationPlan.Measured(ObservedMetric.TPOT, SloStat.P50),
            new CalibrationPlan.Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN));

    /** Shapes (prompt, answer, as multiples of the batch shape's) and loads (a share of the cap) the checks cycle. */
    private static final double[][] SHAPES = {{1.5, 1.5, 0.6}, {3, 0.5, 0.3}, {0.5, 2, 0.8}, {2, 1, 0.45}};

    private CheckPoints() {}

    /**
     * {@code n} check points for a server with {@code limits}, whose batch shape is {@code batchIsl}/{@code batchOsl}
     * and whose cap is {@code cap} requests at once.
     */
    public static List<CalibrationPlan.Probe> design(
            CalibrationPlan.Limits limits, int batchIsl, int batchOsl, int cap, int n, long seed, double scale) {
        return design(limits, batchIsl, batchOsl, cap, n, seed, scale, 0, Double.POSITIVE_INFINITY);
    }

    /**
     * The same, each prompt short enough that its users' prompts, prefilled one after another at
     * {@code ttftPerTokenMs}, wait no more than half {@code firstTokenTimeoutMs} for a first token.
     */
    public static List<CalibrationPlan.Probe> design(
            CalibrationPlan.Limits limits,
            int batchIsl,
            int batchOsl,
            int cap,
            int n,
            long seed,
            double scale,
            double ttftPerTokenMs,
            double firstTokenTimeoutMs) {
        List<CalibrationPlan.Probe> out = new ArrayList<>();
        int most = Math.min(cap, CalibrationPlan.SATURATE_USERS);
        for (int i = 0; i < n; i++) {
            double[] s = SHAPES[i % SHAPES.length];
            int osl = Math.max(16, (int) Math.round(batchOsl * s[1]));
            int isl = Math.max(16, (int) Math.round(batchIsl * s[0]));
            isl = Math.min(isl, limits.context() - osl - 16);
            int users = Math.max(2, (int) Math.round(most * s[2] * (i < SHAPES.length ? 1 : 0.9)));
            if (limits.slots() > 0) users = Math.min(users, limits.slots());
            if (ttftPerTokenMs > 0) {
                int fits = (int) Math.floor(Saturation.TIMEOUT_SHARE * firstTokenTimeoutMs / (users * ttftPerTokenMs));
                isl = Math.max(16, Math.min(isl, fits));
            }
            out.add(probe(
                    "check-" + (i + 1), users, isl, osl, CalibrationPlan.count(3 * users, scale), seed + 1000 + i));
        }
        return out;
    }

    /** A check point kept in a calibration, to be measured again. */
    public static CalibrationPlan.Probe probe(String name, int users, int isl, int osl, int requests, long seed) {
        return new CalibrationPlan.Probe(name, CalibrationPlan.closed(users, isl, osl, requests, users, seed), READS);
    }

    /** The twin's prediction of each number {@code observed} read (NaN where the twin gives none). */
    public static List<Comparison> compare(ParametricServer twin, double[] values, Observation observed) {
        List<RequestRecord> records =
                twin.measurer(values, observed).measure(observed.request()).records();
        double[] predicted = TargetValues.of(records, observed.request().openLoop(), observed.targets());
        List<Comparison> out = new ArrayList<>();
        for (int i = 0; i < predicted.length; i++) {
            out.add(new Comparison(observed, observed.targets().get(i), predicted[i], true));
        }
        return out;
    }

    /** A check point's observation: every number it reads that is > 0. */
    public static Observation observation(CalibrationPlan.Probe probe, Summary s) {
        return CalibrationPlan.observation(probe, s, "check");
    }
}
