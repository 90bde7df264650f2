package dev.headroom.optimizer.fit;

import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * The designed probes {@code headroom calibrate} measures a server with, each chosen for what it pins down:
 * <ul>
 *   <li>{@code isl-N}: one user at several prompt lengths — prefill cost per token and the fixed cost per request
 *       (TTFT), batch-one decode (TPOT);</li>
 *   <li>{@code batch-N}: several concurrencies at one shape — how decode cost grows with the batch;</li>
 *   <li>{@code long-16}: the middle batch with long contexts — decode cost against the KV cache it reads, which
 *       tells the memory efficiency apart from the per-step and per-sequence overheads;</li>
 *   <li>{@code mix}: long prompts arriving among decodes — whether prefill is chunked (the decodes' ITL tail);</li>
 *   <li>{@code saturate}: more users than any batch — the batch cap, KV or slot limit, and queueing (throughput).</li>
 * </ul>
 */
public final class CalibrationPlan {
    /** One probe of the design. */
    public record Probe(String name, MeasurementRequest request, List<Measured> measured) {}

    /** A number a probe reads: {@code stat} of {@code metric}. */
    public record Measured(ObservedMetric metric, SloStat stat) {}

    private static final int DECODE = 64;
    private static final int SHAPE_ISL = 512;
    private static final int SHAPE_OSL = 256;
    private static final int LONG_ISL = 4096;
    private static final double RAMP_SECONDS = 2;

    private CalibrationPlan() {}

    /**
     * The probes for a server whose context holds {@code maxContext} tokens.
     *
     * @param scale multiplies every probe's request count (1 for the standard design, a few minutes on a real server)
     */
    public static List<Probe> design(int maxContext, long seed, double scale) {
        List<Probe> out = new ArrayList<>();
        List<Measured> single =
                List.of(new Measured(ObservedMetric.TTFT, SloStat.P50), new Measured(ObservedMetric.TPOT, SloStat.P50));
        for (int isl : new int[] {128, 512, 2048, 8192}) {
            if (isl + DECODE > maxContext) break;
            out.add(new Probe("isl-" + isl, closed(1, isl, DECODE, count(12, scale), 2, seed), single));
        }
        List<Measured> batch = List.of(
                new Measured(ObservedMetric.TTFT, SloStat.P50),
                new Measured(ObservedMetric.TPOT, SloStat.P50),
                new Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN));
        for (int c : new int[] {4, 16, 64}) {
            out.add(new Probe("batch-" + c, closed(c, SHAPE_ISL, SHAPE_OSL, count(3 * c, scale), c, seed), batch));
        }
        int kvIsl = Math.min(LONG_ISL, maxContext - SHAPE_OSL);
        if (kvIsl >= 2 * SHAPE_ISL) {
            out.add(new Probe("long-16", closed(16, kvIsl, SHAPE_OSL, count(48, scale), 16, seed), batch));
        }
        int longIsl = Math.min(8192, maxContext - 128);
        if (longIsl >= 1024) {
            out.add(new Probe(
                    "mix",
                    closed(8, longIsl, 128, count(32, scale), 8, seed),
                    List.of(
                            new Measured(ObservedMetric.TTFT, SloStat.P50),
                            new Measured(ObservedMetric.ITL, SloStat.P99),
                            new Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN))));
        }
        out.add(new Probe(
                "saturate",
                closed(SATURATE_USERS, SHAPE_ISL, SHAPE_OSL, count(1024, scale), SATURATE_USERS, seed),
                List.of(
                        new Measured(ObservedMetric.TTFT, SloStat.P50),
                        new Measured(ObservedMetric.TPOT, SloStat.P50),
                        new Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN))));
        return out;
    }

    /** {@code probe}'s observation, from its measured summary: the numbers the probe reads, those that are > 0. */
    public static Observation observation(Probe probe, Summary measured) {
        List<Target> targets = new ArrayList<>();
        for (Measured m : probe.measured()) {
            double v = m.metric().of(measured, m.stat());
            if (v > 0 && Double.isFinite(v)) targets.add(new Target(m.metric(), m.stat(), v));
        }
        return new Observation(probe.name(), probe.name(), "endpoint", probe.request(), targets);
    }

    /**
     * Requests the server works on at once when {@code users} closed-loop users saturate it. In steady state each
     * user's cycle is a wait in the queue and then its service, so the share of users being served is service ÷ cycle:
     * {@code users × (e2e − wait) ÷ e2e}, the wait being the TTFT beyond an unloaded TTFT at the same prompt length.
     * Medians, so the probe's start and its drain (fewer users at the end) do not bias it. Far below {@code users}
     * means a batch cap, a slot count or a KV limit.
     */
    public static double servedAtOnce(Summary saturated, int users, double unloadedTtftMs) {
        return servedAtOnce(
                saturated.distribution("e2e_ms").p50(),
                saturated.distribution("ttft_ms").p50(),
                users,
                unloadedTtftMs);
    }

    /** The same from the saturated run's E2E and TTFT medians. */
    public static double servedAtOnce(double e2eP50, double ttftP50, int users, double unloadedTtftMs) {
        double wait = Math.max(0, ttftP50 - unloadedTtftMs);
        return e2eP50 > 0 ? users * Math.max(0, e2eP50 - wait) / e2eP50 : Double.NaN;
    }

    /** The users of the saturating probe. */
    public static final int SATURATE_USERS = 512;

    /** The one-user probe at the saturating probe's prompt length: its TTFT is the unloaded one. */
    public static final String UNLOADED_PROBE = "isl-" + SHAPE_ISL;

    private static int count(int n, double scale) {
        return Math.max(4, (int) Math.round(n * scale));
    }

    /**
     * {@code users} closed-loop users started over a ramp (so that fixed lengths do not keep them in lockstep), the
     * first {@code warmup} requests excluded.
     */
    private static MeasurementRequest closed(int users, int isl, int osl, int requests, int warmup, long seed) {
        double ramp = users == 1 ? 0 : RAMP_SECONDS;
        return new MeasurementRequest(
                new LoadModel.Closed(users),
                Workload.fixed(isl, osl),
                new RunLength(requests, Double.POSITIVE_INFINITY, warmup, ramp, 0),
                seed);
    }
}
