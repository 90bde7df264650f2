package dev.headroom.optimizer.fit;

import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ParametricServer;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses among twins of different shape (a batch cap or slots, chunked prefill or not): each is fitted quickly, the
 * one that reproduces the observations best is fitted fully and cross-validated.
 */
public final class TwinSelection {
    /**
     * @param index   the chosen candidate
     * @param report  its full fit, cross-validated
     * @param errors  each candidate's in-sample median absolute error after its quick fit
     */
    public record Selected(int index, FitReport report, List<Double> errors) {}

    private TwinSelection() {}

    public static Selected select(
            List<? extends ParametricServer> candidates,
            List<Observation> observations,
            TwinFit.Settings quick,
            TwinFit.Settings full,
            int folds) {
        if (candidates.isEmpty()) throw new IllegalArgumentException("no candidate twin");
        List<Double> errors = new ArrayList<>();
        int best = 0;
        for (int i = 0; i < candidates.size(); i++) {
            double e = candidates.size() == 1
                    ? 0
                    : FitReport.medianError(new TwinFit(candidates.get(i), quick)
                            .fit(observations)
                            .fitted());
            errors.add(e);
            if (e < errors.get(best)) best = i;
        }
        TwinFit fit = new TwinFit(candidates.get(best), full);
        FitReport report = folds >= 2 ? fit.crossValidated(observations, folds) : fit.fit(observations);
        return new Selected(best, report, errors);
    }
}
