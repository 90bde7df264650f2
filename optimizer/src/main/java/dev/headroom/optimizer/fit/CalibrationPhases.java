package dev.headroom.optimizer.fit;

import dev.headroom.model.Metric;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The order a calibration measures in, and what it decides between probes: the designed probes
 * ({@link CalibrationPlan}) — batch probes in rising order, the larger ones skipped once one shows a cap binding
 * (they would only queue) — then the saturating phase ({@link Saturation}). A probe that loses more than
 * {@link Saturation#MAX_LOSS} of its requests is not fitted; one with several users is replaced by one with half as
 * many. The caller measures each {@link #next()} and hands back its summary.
 */
public final class CalibrationPhases {
    private final CalibrationPlan.Limits limits;
    private final CalibrationPlan.Design design;
    private final long seed;
    private final double scale;
    private final double firstTokenTimeoutMs;
    private final List<CalibrationPlan.Probe> queue;
    private final List<Observation> observations = new ArrayList<>();
    private final java.util.Map<String, Observation> saturated = new java.util.HashMap<>();
    private final List<String> notes = new ArrayList<>();
    private double unloadedTtftMs = Double.NaN;
    /** The slowest TTFT per prompt token the one-user probes read (ms). */
    private double ttftPerToken;

    private double batchCapRead = Double.NaN;
    /** A batch probe's reading: served at once, and its throughput, TTFT and E2E medians. */
    private record BatchReading(int users, double served, double tokensPerS, double ttftMs, double e2eMs) {
        boolean queued() {
            return served < Saturation.BINDING * users;
        }
    }

    /** The largest batch probe that did not queue (else the largest): what the saturating step may load. */
    private BatchReading reference;
    /** The largest batch probe, queued or not: what the first saturating step must grow beyond. */
    private BatchReading largest;

    private Saturation saturation;

    /** @param firstTokenTimeoutMs the client's first-token timeout: no probe is sized to wait anywhere near it */
    public CalibrationPhases(CalibrationPlan.Limits limits, long seed, double scale, double firstTokenTimeoutMs) {
        this.limits = limits;
        this.design = CalibrationPlan.design(limits, seed, scale);
        this.seed = seed;
        this.scale = scale;
        this.firstTokenTimeoutMs = firstTokenTimeoutMs;
        this.queue = new ArrayList<>(design.probes());
        notes.addAll(design.substitutions());
        for (String w : design.weak()) notes.add("weakly determined: " + w);
    }

    public CalibrationPlan.Limits limits() {
        return limits;
    }

    public CalibrationPlan.Design design() {
        return design;
    }

    /** The next probe to measure, or null when every phase is over. */
    public CalibrationPlan.Probe next() {
        if (!queue.isEmpty()) return queue.getFirst();
        if (saturation == null) {
            int from = Double.isNaN(batchCapRead)
                    ? 2 * (reference == null ? 1 : reference.users())
                    : (int) Math.max(2, 2 * Math.round(batchCapRead));
            saturation = new Saturation(
                    design.batchIsl(),
                    design.batchOsl(),
                    from,
                    limits,
                    Double.isNaN(unloadedTtftMs) ? 0 : unloadedTtftMs,
                    firstTokenTimeoutMs,
                    seed,
                    scale);
            // Where the server states its slots, those are served at once, whatever a smaller batch read.
            if (reference != null) {
                double served = limits.slots() > 0 && !(reference.served() > limits.slots())
                        ? limits.slots()
                        : reference.served();
                saturation.after(served, largest.tokensPerS(), reference.ttftMs(), reference.e2eMs());
                saturation.grownBeyond(largest.served());
            }
        }
        return saturation.next();
    }

    /** What {@code probe}, the last {@link #next()}, measured. */
    public void measured(CalibrationPlan.Probe probe, Summary s) {
        measured(probe, s, Double.NaN);
    }

    /**
     * The same, with the most requests the server's own {@code /metrics} said were running during the probe (NaN:
     * not exported): in the saturating phase, direct evidence of the cap.
     */
    public void measured(CalibrationPlan.Probe probe, Summary s, double serverRunningMax) {
        if (saturation != null) {
            saturation.measured(probe, s, serverRunningMax);
            if (saturation.steps().getLast().kept()) saturated.put(probe.name(), CalibrationPlan.observation(probe, s));
            return;
        }
        queue.removeFirst();
        Summary.Counts c = s.counts();
        long all = c.completed() + c.failed() + c.incomplete();
        double loss = all == 0 ? 1 : (double) (c.failed() + c.incomplete()) / all;
        if (loss > Saturation.MAX_LOSS) {
            String why =
                    String.format(Locale.ROOT, "%s lost %.1f %% of its requests: not fitted", probe.name(), 100 * loss);
            if (probe.users() > 1 && !probe.name().endsWith("-half")) {
                int half = probe.users() / 2;
                queue.addFirst(new CalibrationPlan.Probe(
                        probe.name() + "-half",
                        CalibrationPlan.closed(
                                half, probe.isl(), probe.osl(), CalibrationPlan.count(3 * half, scale), half, seed),
                        probe.measured()));
                why += "; replaced by " + half + " users";
            }
            notes.add(why);
            return;
        }
        observations.add(CalibrationPlan.observation(probe, s));
        if (probe.name().equals(design.unloadedProbe())) {
            unloadedTtftMs = ObservedMetric.TTFT.of(s, SloStat.P50);
        }
        if (probe.name().startsWith("isl-")) {
            double ttft = ObservedMetric.TTFT.of(s, SloStat.P50);
            if (ttft > 0) ttftPerToken = Math.max(ttftPerToken, ttft / probe.isl());
            fitPromptsToTimeout();
        }
        if (probe.name().startsWith("batch-") && !Double.isNaN(unloadedTtftMs)) {
            double served = CalibrationPlan.servedAtOnce(s, probe.users(), unloadedTtftMs);
            // The reference's TTFT is a request's own, not a wait: the largest batch probe that did not queue.
            BatchReading read = new BatchReading(
                    probe.users(),
                    served,
                    s.outputTokensPerS(),
                    s.distribution(Metric.TTFT_MS).p50(),
                    s.distribution(Metric.E2E_MS).p50());
            if (reference == null || (probe.users() >= reference.users() && (!read.queued() || reference.queued()))) {
                reference = read;
            }
            if (largest == null || probe.users() >= largest.users()) largest = read;
            fitBatchesToTimeout(
                    probe,
                    served,
                    s.distribution(Metric.TTFT_MS).p50(),
                    s.distribution(Metric.E2E_MS).p50());
            if (served < Saturation.BINDING * probe.users() && Double.isNaN(batchCapRead)) {
                batchCapRead = served;
                List<String> skipped = new ArrayList<>();
                queue.removeIf(p -> {
                    boolean skip = p.name().startsWith("batch-") && p.users() > probe.users();
                    if (skip) skipped.add(p.name());
                    return skip;
                });
                if (!skipped.isEmpty()) {
                    notes.add(String.format(
                            Locale.ROOT,
                            "%s skipped: %s served only %.1f at once",
                            String.join(", ", skipped),
                            probe.name(),
                            served));
                }
                // The long and mixed probes queue beyond the cap: as many users as it serves.
                int cap = (int) Math.max(1, Math.round(served));
                queue.replaceAll(p -> p.users() > cap && !p.name().startsWith("isl-") ? withUsers(p, cap) : p);
            }
        }
    }

    /** The longest wait a probe is sized for: half the first-token timeout. */
    private double patienceMs() {
        return Saturation.TIMEOUT_SHARE * firstTokenTimeoutMs;
    }

    /**
     * Prompts whose prefill, at the slowest TTFT per prompt token the one-user probes read, would take more than
     * half the first-token timeout (a CPU server and an 8,192-token prompt): a longer one-user probe is skipped, a
     * long or mixed probe's prompts are shortened so that its users' prompts, prefilled one after another, fit —
     * or it is skipped where that leaves nothing to read — and each is said.
     */
    private void fitPromptsToTimeout() {
        if (!(ttftPerToken > 0)) return;
        List<CalibrationPlan.Probe> next = new ArrayList<>();
        for (CalibrationPlan.Probe p : queue) {
            boolean one = p.name().startsWith("isl-");
            boolean prompts = one || p.name().startsWith("long-") || p.name().equals("mix");
            int users = one ? 1 : p.users();
            if (!prompts || users * ttftPerToken * p.isl() <= patienceMs()) {
                next.add(p);
                continue;
            }
            int fits = (int) Math.floor(patienceMs() / (users * ttftPerToken)) / 16 * 16;
            int least =
                    one ? Integer.MAX_VALUE : p.name().equals("mix") ? 3 * design.batchIsl() : 2 * design.batchIsl();
            String predicted = String.format(Locale.ROOT, "%.0f s", users * ttftPerToken * p.isl() / 1000);
            if (fits >= least) {
                next.add(new CalibrationPlan.Probe(
                        p.name(),
                        CalibrationPlan.closed(
                                users, fits, p.osl(), p.request().length().requests(), users, seed),
                        p.measured()));
                notes.add(p.name() + " at " + fits + " tokens instead of " + p.isl() + ": its prompts would wait "
                        + "about " + predicted + " for a first token (timeout " + (long) (firstTokenTimeoutMs / 1000)
                        + " s)");
            } else {
                notes.add(p.name() + " skipped: its prompts would wait about " + predicted + " for a first token "
                        + "(timeout " + (long) (firstTokenTimeoutMs / 1000) + " s)");
                if (!one)
                    notes.add("weakly determined: "
                            + (p.name().equals("mix")
                                    ? "whether prefill is chunked (no long prompt prefills within the timeout)"
                                    : "memory_efficiency apart from step_overhead_ms and seq_overhead_us (no "
                                            + "long context prefills within the timeout)"));
            }
        }
        queue.clear();
        queue.addAll(next);
    }

    /**
     * The next batch probe, when its users, were the cap no more than {@code served} (as {@code probe} just read),
     * would wait more than half the first-token timeout for a first token ({@link Saturation#mostUsers}): it gets as
     * many users as wait within it, or is skipped.
     */
    private void fitBatchesToTimeout(CalibrationPlan.Probe probe, double served, double ttftMs, double e2eMs) {
        if (!(served > 0) || !(e2eMs > 0)) return;
        int allowed = Saturation.mostUsers(served, ttftMs, e2eMs, patienceMs());
        List<CalibrationPlan.Probe> next = new ArrayList<>();
        boolean first = true; // only the next batch probe: the ones after it are judged on its own reading
        for (CalibrationPlan.Probe p : queue) {
            boolean batch = p.name().startsWith("batch-");
            boolean judged = batch && first;
            if (batch) first = false;
            if (!judged || p.users() <= allowed) {
                next.add(p);
            } else if (allowed > probe.users() && next.stream().noneMatch(q -> q.users() == allowed)) {
                next.add(withUsers(p, allowed));
                notes.add(String.format(
                        Locale.ROOT,
                        "%s run as batch-%d: more users could wait over half the first-token timeout (%s served %.1f "
                                + "at once, TTFT %.1f s, E2E %.1f s)",
                        p.name(),
                        allowed,
                        probe.name(),
                        served,
                        ttftMs / 1000,
                        e2eMs / 1000));
            } else {
                notes.add(p.name() + " skipped: its users could wait over half the first-token timeout");
            }
        }
        queue.clear();
        queue.addAll(next);
    }

    private CalibrationPlan.Probe withUsers(CalibrationPlan.Probe p, int users) {
        String name = p.name().startsWith("long-")
                ? "long-" + users
                : p.name().startsWith("batch-") ? "batch-" + users : p.name();
        int perUser = Math.max(1, (int) Math.round((double) p.request().length().requests() / p.users()));
        return new CalibrationPlan.Probe(
                name,
                CalibrationPlan.closed(users, p.isl(), p.osl(), Math.max(4, perUser * users), users, seed),
                p.measured());
    }

    /**
     * The observations to fit, in the order measured: lossy probes left out, and of the saturating phase only the
     * step the cap is read from (the steps below it only led there).
     */
    public List<Observation> observations() {
        List<Observation> out = new ArrayList<>(observations);
        Saturation.Step r = saturation == null ? null : saturation.reading();
        if (r != null) out.add(saturated.get(r.probe().name()));
        return out;
    }

    /** The saturating phase (null before it starts). */
    public Saturation saturation() {
        return saturation;
    }

    /** How many requests a batch probe read served at once when it showed a cap binding; NaN when none did. */
    public double batchCapRead() {
        return batchCapRead;
    }

    /** The slowest TTFT per prompt token the one-user probes read, in ms (0 before any). */
    public double ttftPerTokenMs() {
        return ttftPerToken;
    }

    /** The one-user TTFT at the batch prompt length (NaN when that probe was lost). */
    public double unloadedTtftMs() {
        return unloadedTtftMs;
    }

    /** Everything decided on the way: substitutions, weak terms, probes skipped, replaced or not run. */
    public List<String> notes() {
        List<String> out = new ArrayList<>(notes);
        if (saturation != null) out.addAll(saturation.notes());
        return out;
    }
}
