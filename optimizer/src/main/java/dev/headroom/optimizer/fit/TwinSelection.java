package dev.headroom.optimizer.fit;

import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ParametricServer;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses among twins of different shape (a batch cap or slots, how prefill shares steps, scheduling ahead): each is
 * fitted quickly and the one that reproduces the observations best wins; the winner is then fitted fully.
 */
public final class TwinSelection {
    /**
     * @param index  the chosen candidate
     * @param errors each candidate's in-sample mean absolute error after its quick fit
     */
    public record Choice(int index, List<Double> errors) {
        public double error() {
            return errors.get(index);
        }
    }

    /**
     * How much lower a later candidate's error must be, as a share of the best so far, to displace it: closer than
     * that, the probes cannot tell them apart and the one listed first stands.
     */
    static final double TIE = 0.05;

    private TwinSelection() {}

    /**
     * The candidate whose quick fit reproduces {@code observations} best (the first of near-equals, {@link #TIE}),
     * judged by the mean absolute error over every number: a shape that fits TPOT and throughput but misses TTFT at
     * every batch probe has a small median error (the kinds it fits outnumber the one it misses) and a large mean.
     */
    public static Choice best(
            List<? extends ParametricServer> candidates, List<Observation> observations, TwinFit.Settings quick) {
        if (candidates.isEmpty()) throw new IllegalArgumentException("no candidate twin");
        List<Double> errors = new ArrayList<>();
        int best = 0;
        for (ParametricServer c : candidates) {
            errors.add(meanError(new TwinFit(c, quick).fit(observations).fitted()));
            if (errors.getLast() < errors.get(best) * (1 - TIE)) best = errors.size() - 1;
        }
        return new Choice(best, errors);
    }

    /** Mean of {@code comparisons}' absolute errors; infinite where one was not predicted. */
    static double meanError(List<Comparison> comparisons) {
        return comparisons.stream()
                .mapToDouble(Comparison::absoluteError)
                .average()
                .orElse(Double.POSITIVE_INFINITY);
    }

    /**
     * The chosen twin fitted fully from {@code warm} (its starting values, e.g. an earlier fit's), and cross-validated
     * from {@code cold} (the same shape from values no observation set), so no held-out observation is predicted from
     * terms fitted to it; {@code folds} below 2 skips the cross-validation.
     */
    public static FitReport fit(
            ParametricServer warm,
            ParametricServer cold,
            List<Observation> observations,
            TwinFit.Settings full,
            int folds) {
        FitReport inSample = new TwinFit(warm, full).fit(observations);
        List<Comparison> heldOut = folds >= 2 ? new TwinFit(cold, full).heldOut(observations, folds) : List.of();
        return new FitReport(
                inSample.parameters(), inSample.values(), inSample.fitted(), heldOut, inSample.evaluations());
    }
}
