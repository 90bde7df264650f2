package dev.headroom.optimizer.fit;

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
    private double batchCapRead = Double.NaN;
    private int largestBatch;
    private double largestBatchServed = Double.NaN, largestBatchTps = Double.NaN;
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
                    ? 2 * Math.max(largestBatch, 1)
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
            saturation.after(largestBatchServed, largestBatchTps);
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
        if (probe.name().startsWith("batch-") && !Double.isNaN(unloadedTtftMs)) {
            double served = CalibrationPlan.servedAtOnce(s, probe.users(), unloadedTtftMs);
            if (probe.users() >= largestBatch) {
                largestBatch = probe.users();
                largestBatchServed = served;
                largestBatchTps = s.outputTokensPerS();
            }
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

    private CalibrationPlan.Probe withUsers(CalibrationPlan.Probe p, int users) {
        String name = p.name().startsWith("long-") ? "long-" + users : p.name();
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
