package dev.headroom.model;

import java.util.List;
import java.util.Map;

/**
 * A finished (or interrupted) search as {@code search.json} publishes it.
 *
 * @param run         what was measured: target, workload, seed (its load is the first probe's)
 * @param value       max-concurrency/max-rate: the boundary estimate (NaN when below the range); max-goodput: the
 *                    load with the highest posterior mean goodput
 * @param ciLow       boundary: the largest load seen passing; max-goodput: the lowest load whose posterior mean is
 *                    within one posterior sd of the best
 * @param ciHigh      boundary: the smallest load seen failing; max-goodput: the highest such load
 * @param curves      per SLO text, the isotonic fit of its margin sampled on a grid of loads
 * @param goodput     the max-goodput answer, or null for a boundary search
 * @param rampSeconds the closed-loop ramp the probes used (learnt from the first probe; kept so a resumed search
 *                    shapes its probes the same way)
 * @param drift       the checks that the server stayed the same while it was searched, or null when none ran (the
 *                    search stopped below its range, or was told not to check)
 */
public record SearchReport(
        RunInfo run,
        String objective,
        List<Slo> slos,
        boolean simulated,
        double min,
        double max,
        double tolerance,
        double value,
        double ciLow,
        double ciHigh,
        String bindingSlo,
        BoundaryType boundaryType,
        StopReason stopReason,
        List<Probe> probes,
        Map<String, List<CurvePoint>> curves,
        GoodputResult goodput,
        double rampSeconds,
        SearchDrift drift) {

    /**
     * One probe of the search, in the order it ran.
     *
     * @param margins per SLO text, its margin
     * @param goodput in the search's goodput unit
     * @param tpot           the mean TPOT (ms) of its measured, successful requests of two tokens or more, and its
     *                       standard error (from the effective sample size), in either loop: the server's speed, what a
     *                       drift check compares
     * @param e2eMeanSeconds closed loop: the mean e2e of its measured requests, from which later probes' ramps are
     *                       interpolated (NaN in open loop or when none succeeded)
     * @param batch          what it showed of the server's running batch (NaNs when not kept)
     */
    public record Probe(
            int index,
            double load,
            Map<String, SloMargin> margins,
            boolean pass,
            Estimate goodput,
            long requests,
            double seconds,
            String dir,
            double e2eMeanSeconds,
            Estimate tpot,
            Batch batch) {
        public Probe {
            if (tpot == null) tpot = new Estimate(Double.NaN, Double.NaN);
            if (batch == null) batch = new Batch(Double.NaN, Double.NaN);
        }

        /** A probe whose TPOT was not kept (unknown). */
        public Probe(
                int index,
                double load,
                Map<String, SloMargin> margins,
                boolean pass,
                Estimate goodput,
                long requests,
                double seconds,
                String dir,
                double e2eMeanSeconds) {
            this(index, load, margins, pass, goodput, requests, seconds, dir, e2eMeanSeconds, null, null);
        }
    }

    /**
     * How far one probe's measurement of an SLO lies from its threshold, as {@code search.json} keeps it.
     *
     * @param value   (observed − threshold) ÷ threshold; negative passes
     * @param se      its standard error
     * @param samples the values it was computed from
     */
    public record SloMargin(double value, double se, long samples) {}

    /**
     * What a probe showed of the server's running batch (docs/search.md, "Max goodput").
     *
     * @param runningStreams the requests it streamed at once: the count exceeded for at most 1 % of the probe's time
     * @param queueRoom      closed loop: how many more users could wait for a slot of a full batch before more than
     *                       1 % of its good requests would miss an SLO (NaN in open loop or over sessions)
     * @param fillUsers      closed loop: the users that keep that many streaming without a wait, by Little's law —
     *                       the running streams × Σ(send → end) ÷ Σ(first → last token), as each user's request
     *                       streams for only that share of its cycle (NaN in open loop or over sessions)
     */
    public record Batch(double runningStreams, double queueRoom, double fillUsers) {
        /** A batch read without its fill. */
        public Batch(double runningStreams, double queueRoom) {
            this(runningStreams, queueRoom, Double.NaN);
        }
    }

    /** A measured value and its standard error (NaN when unknown). */
    public record Estimate(double value, double se) {}

    /** One point of an SLO's isotonic margin curve. */
    public record CurvePoint(double load, double margin) {}

    /** The Gaussian-process posterior of goodput at one load. */
    public record PosteriorPoint(double load, double mean, double sd) {}

    /**
     * The fitted kernel of the goodput surrogate.
     *
     * @param lengthScale in log load
     * @param nugget      the noise, in standardised units
     */
    public record Kernel(double amplitude, double lengthScale, double nugget) {}

    /**
     * The max-goodput answer.
     *
     * @param unit       requests or tokens (good requests/s or their output tokens/s)
     * @param mean       posterior mean goodput at the argmax; an answer at a batch cap (or a few users past it): the
     *                   goodput measured at the cap
     * @param sd         posterior sd there (at a cap: that measurement's standard error)
     * @param expectedImprovement the best expected improvement left when the search stopped
     * @param posterior  the Gaussian-process posterior on a grid of loads
     * @param kernel     the fitted kernel
     * @param batchCap   the server's batch cap the search went by, NaN when none
     * @param batchCapSource {@code stated} (the server said so) or {@code observed} (a probe had more users than the
     *                   server streamed at once), null when none
     */
    public record GoodputResult(
            String unit,
            double mean,
            double sd,
            double bestObservedLoad,
            double bestObserved,
            double expectedImprovement,
            List<PosteriorPoint> posterior,
            Kernel kernel,
            double batchCap,
            String batchCapSource) {}
}
