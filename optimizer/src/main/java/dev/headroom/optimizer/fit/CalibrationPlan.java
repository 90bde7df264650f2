package dev.headroom.optimizer.fit;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metric;
import dev.headroom.model.RunLength;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * The designed probes {@code headroom calibrate} measures a server with, each chosen for what it pins down, and each
 * sized so that prompt plus answer fit the context one request gets:
 * <ul>
 *   <li>{@code isl-N}: one user at several prompt lengths — prefill cost per token and the fixed cost per request
 *       (TTFT), batch-one decode (TPOT);</li>
 *   <li>{@code batch-N}: several concurrencies at one shape — how decode cost grows with the batch (never more users
 *       than the slots a server states);</li>
 *   <li>{@code long-N}: the middle batch with long contexts — decode cost against the KV cache it reads, which
 *       tells the memory efficiency apart from the per-step and per-sequence overheads;</li>
 *   <li>{@code mix}: long prompts arriving among decodes — whether prefill is chunked (the decodes' ITL tail).</li>
 * </ul>
 * The saturating phase that follows is {@link Saturation}'s. Where a standard shape does not fit the context, a
 * smaller one that pins the same terms is substituted and said; where none can, the terms it pins are named weak.
 */
public final class CalibrationPlan {
    /** One probe of the design. */
    public record Probe(String name, MeasurementRequest request, List<Measured> measured) {
        public int users() {
            return request.load() instanceof LoadModel.Closed c ? c.concurrency() : 1;
        }

        public int isl() {
            return (int) Math.round(request.workload().inputTokens().mean());
        }

        public int osl() {
            return (int) Math.round(request.workload().outputTokens().mean());
        }
    }

    /** A number a probe reads: {@code stat} of {@code metric}. */
    public record Measured(ObservedMetric metric, SloStat stat) {}

    /**
     * What the design needs to know of the server.
     *
     * @param context the tokens one request may hold, prompt and answer (per slot on llama.cpp)
     * @param slots    the most requests the server states it serves at once; 0 when it does not say
     * @param admitted the most requests it states it admits at once, running and waiting (TGI); 0 when it does not
     */
    public record Limits(int context, int slots, int admitted) {
        public Limits {
            if (context < MIN_CONTEXT) {
                throw new BadInputException("the server gives one request " + context + " tokens of context: "
                        + "too few to calibrate (at least " + MIN_CONTEXT + ")");
            }
            if (slots < 0 || admitted < 0) throw new IllegalArgumentException("slots and admitted must be >= 0");
        }

        /** What a server with {@code facts} allows, serving a model of {@code modelContext} tokens of context. */
        public static Limits of(ServerFacts facts, int modelContext) {
            long context = modelContext;
            if (facts.contextPerRequest().isPresent())
                context = Math.min(context, facts.contextPerRequest().getAsLong());
            var input = facts.get(ServerFacts.Key.MAX_INPUT_TOKENS);
            if (input.isPresent()) context = Math.min(context, input.getAsLong() + 1);
            return new Limits(
                    (int) context,
                    (int) Math.min(Integer.MAX_VALUE, facts.maxRunning().orElse(0)),
                    (int) Math.min(
                            Integer.MAX_VALUE,
                            facts.get(ServerFacts.Key.MAX_CONCURRENT).orElse(0)));
        }

        /**
         * At most 90 % of the users this server admits: at the limit itself a request whose predecessor is still
         * being counted is refused, and in closed loop its user's retry is refused again.
         */
        int admit(int users) {
            return admitted > 0 ? Math.min(users, Math.max(1, (int) Math.floor(0.9 * admitted))) : users;
        }
    }

    /**
     * The probes, and what the server's limits changed.
     *
     * @param batchIsl      the prompt length of the batch and saturating probes
     * @param batchOsl      their answer length
     * @param substitutions each probe whose shape was changed to fit, with what it became
     * @param weak          the terms no probe that fits can pin well, each with why
     */
    public record Design(
            List<Probe> probes, int batchIsl, int batchOsl, List<String> substitutions, List<String> weak) {
        /** The one-user probe at the batch prompt length: its TTFT is the unloaded one. */
        public String unloadedProbe() {
            return "isl-" + batchIsl;
        }
    }

    static final int MIN_CONTEXT = 256;
    private static final int DECODE = 64;
    private static final int SHAPE_ISL = 512;
    private static final int SHAPE_OSL = 256;
    private static final int LONG_ISL = 4096;
    private static final int LONG_USERS = 16;
    private static final int MIX_ISL = 8192;
    private static final int MIX_OSL = 128;
    private static final int MIX_USERS = 8;
    private static final int[] ISLS = {128, 512, 2048, 8192};
    private static final int[] BATCHES = {4, 16, 64};
    private static final double RAMP_SECONDS = 2;

    private CalibrationPlan() {}

    /**
     * The probes for a server with {@code limits}.
     *
     * @param scale multiplies every probe's request count (1 for the standard design, a few minutes on a real server)
     */
    public static Design design(Limits limits, long seed, double scale) {
        int ctx = limits.context();
        List<String> substitutions = new ArrayList<>();
        List<String> weak = new ArrayList<>();
        // The batch shape: 512 / 256 where a prompt twice as long fits beside the answer too (the long probe), else
        // a quarter and an eighth of the context.
        int batchIsl = SHAPE_ISL, batchOsl = SHAPE_OSL;
        if (2 * SHAPE_ISL + SHAPE_OSL + 16 > ctx) {
            batchIsl = round16(ctx / 4);
            batchOsl = round16(ctx / 8);
            substitutions.add("batch probes at " + batchIsl + " / " + batchOsl + " tokens instead of " + SHAPE_ISL
                    + " / " + SHAPE_OSL + " (context per request " + ctx + ")");
        }
        List<Probe> out = new ArrayList<>();
        List<Measured> single =
                List.of(new Measured(ObservedMetric.TTFT, SloStat.P50), new Measured(ObservedMetric.TPOT, SloStat.P50));
        List<Integer> isls = new ArrayList<>();
        for (int isl : ISLS) if (isl + DECODE <= ctx) isls.add(isl);
        if (isls.size() < 3) {
            // Prefill needs two lengths or more, far apart: the longest that fits beside the shortest.
            int longest = round16(ctx - DECODE - 16);
            if (!isls.contains(longest) && longest > 2 * (isls.isEmpty() ? 64 : isls.getLast())) {
                isls.add(longest);
                substitutions.add(
                        "isl-" + longest + " instead of the prompts that do not fit (context per request " + ctx + ")");
            }
        }
        if (!isls.contains(batchIsl)) isls.add(batchIsl);
        isls.sort(Integer::compare);
        if (isls.size() < 2) weak.add("request_overhead_ms apart from the prefill cost: one prompt length fits");
        for (int isl : isls) {
            out.add(new Probe("isl-" + isl, closed(1, isl, DECODE, count(12, scale), 2, seed), single));
        }
        List<Measured> batch = List.of(
                new Measured(ObservedMetric.TTFT, SloStat.P50),
                new Measured(ObservedMetric.TPOT, SloStat.P50),
                new Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN));
        for (int c : batchSizes(limits.slots())) {
            c = limits.admit(c);
            out.add(new Probe("batch-" + c, closed(c, batchIsl, batchOsl, count(3 * c, scale), c, seed), batch));
        }
        if (limits.slots() == 1) weak.add("seq_overhead_us and gemm_half_tokens: one slot, so no batch to read");
        int longUsers = users(LONG_USERS, limits.slots());
        int kvIsl = Math.min(LONG_ISL, round16(ctx - batchOsl - 16));
        if (kvIsl >= 2 * batchIsl) {
            if (kvIsl < LONG_ISL) {
                substitutions.add("long-" + longUsers + " at " + kvIsl + " tokens instead of " + LONG_ISL);
            }
            out.add(new Probe(
                    "long-" + longUsers,
                    closed(longUsers, kvIsl, batchOsl, count(3 * longUsers, scale), longUsers, seed),
                    batch));
        } else {
            weak.add("memory_efficiency apart from step_overhead_ms and seq_overhead_us: no prompt twice the batch "
                    + "shape's fits the context (" + ctx + ")");
        }
        int mixUsers = users(MIX_USERS, limits.slots());
        int longIsl = Math.min(MIX_ISL, round16(ctx - MIX_OSL - 16));
        if (longIsl >= Math.min(1024, 3 * batchIsl)) {
            if (longIsl < MIX_ISL) substitutions.add("mix at " + longIsl + " tokens instead of " + MIX_ISL);
            out.add(new Probe(
                    "mix",
                    closed(mixUsers, longIsl, MIX_OSL, count(4 * mixUsers, scale), mixUsers, seed),
                    List.of(
                            new Measured(ObservedMetric.TTFT, SloStat.P50),
                            new Measured(ObservedMetric.ITL, SloStat.P99),
                            new Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN))));
        } else {
            weak.add("whether prefill is chunked: no prompt three times the batch shape's fits beside an answer "
                    + "(context " + ctx + ")");
        }
        return new Design(out, batchIsl, batchOsl, List.copyOf(substitutions), List.copyOf(weak));
    }

    /** 4, 16 and 64 users, never more than the slots a server states (and the slot count itself). */
    static List<Integer> batchSizes(int slots) {
        List<Integer> out = new ArrayList<>();
        for (int c : BATCHES) if (slots == 0 || c < slots) out.add(c);
        if (slots > 1 && slots <= BATCHES[BATCHES.length - 1]) out.add(slots);
        return out;
    }

    /** {@code probe}'s observation, from its measured summary: the numbers the probe reads, those that are > 0. */
    public static Observation observation(Probe probe, Summary measured) {
        return observation(probe, measured, "endpoint");
    }

    /** The same, in observation group {@code group}. */
    static Observation observation(Probe probe, Summary measured, String group) {
        List<Target> targets = new ArrayList<>();
        for (Measured m : probe.measured()) {
            double v = m.metric().of(measured, m.stat());
            if (v > 0 && Double.isFinite(v)) targets.add(new Target(m.metric(), m.stat(), v));
        }
        return new Observation(probe.name(), probe.name(), group, probe.request(), targets);
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
                saturated.distribution(Metric.E2E_MS).p50(),
                saturated.distribution(Metric.TTFT_MS).p50(),
                users,
                unloadedTtftMs);
    }

    /** The same from the saturated run's E2E and TTFT medians. */
    public static double servedAtOnce(double e2eP50, double ttftP50, int users, double unloadedTtftMs) {
        double wait = Math.max(0, ttftP50 - unloadedTtftMs);
        return e2eP50 > 0 ? users * Math.max(0, e2eP50 - wait) / e2eP50 : Double.NaN;
    }

    /** The users of the largest saturating probe. */
    public static final int SATURATE_USERS = 512;

    static int count(int n, double scale) {
        return Math.max(4, (int) Math.round(n * scale));
    }

    private static int users(int nominal, int slots) {
        return slots > 0 ? Math.min(nominal, slots) : nominal;
    }

    private static int round16(int n) {
        return Math.max(16, n / 16 * 16);
    }

    /**
     * {@code users} closed-loop users started over a ramp (so that fixed lengths do not keep them in lockstep), the
     * first {@code warmup} requests excluded.
     */
    static MeasurementRequest closed(int users, int isl, int osl, int requests, int warmup, long seed) {
        double ramp = users == 1 ? 0 : RAMP_SECONDS;
        return new MeasurementRequest(
                new LoadModel.Closed(users),
                Workload.fixed(isl, osl),
                new RunLength(requests, Double.POSITIVE_INFINITY, warmup, ramp, 0),
                seed);
    }
}
