package dev.headroom.optimizer.fit;

import dev.headroom.model.BadInputException;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.Parameter;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.model.fit.TwinFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a calibration turns its probes into a twin: the batch cap (as the server states it, else as the saturating
 * phase read it and {@link CapMatch} corrects it), the scheduler shape (each shape quick-fitted from a common quick
 * fit, the best kept: {@link TwinSelection}), then the full fit, cross-validated from the starting profile so no
 * held-out probe is predicted from terms fitted to it; and the warnings a forced fit deserves.
 */
public final class TwinCalibration {
    /** How hard the fit pulls each term towards the starting profile's (see TwinFit.Settings). */
    public static final double PRIOR_WEIGHT = 0.02;
    /** A term this close to a bound, as a share of its range, is pinned there. */
    static final double AT_BOUND = 0.01;
    /** The in-sample error (median, worst kind) beyond which a term at a bound is a forced fit. */
    static final double FORCED_ERROR = 0.05;

    /**
     * The twin chosen.
     *
     * @param shape        the family's shape index
     * @param cap          the twin's batch cap
     * @param capSource    how the cap was found, in words
     * @param shapeErrors  each shape's quick-fit mean error (TwinSelection)
     * @param warnings     terms pinned at a bound, a stated limit the probes contradict: one line each
     */
    public record Result(
            int shape, int cap, String capSource, List<Double> shapeErrors, FitReport report, List<String> warnings) {}

    private TwinCalibration() {}

    /**
     * @param phases what was measured, in the order measured
     * @param folds  cross-validation folds (below 2: none)
     */
    public static Result fit(TwinFamily family, CalibrationPhases phases, int folds) {
        List<Observation> observations = phases.observations();
        if (observations.isEmpty()) {
            throw new BadInputException("no probe could be fitted: every one lost more than "
                    + Math.round(100 * Saturation.MAX_LOSS) + " % of its requests (" + String.join("; ", phases.notes())
                    + "); check the target, or give it more time with {first-token-timeout}");
        }
        TwinFit.Settings quick = new TwinFit.Settings(PRIOR_WEIGHT, 1, 80);
        TwinFit.Settings full = new TwinFit.Settings(PRIOR_WEIGHT, 3, 240);
        List<String> warnings = new ArrayList<>();
        Saturation sat = phases.saturation();
        Saturation.Step reading = sat == null ? null : sat.reading();
        int stated = phases.limits().slots();
        int cap;
        String capSource;
        boolean fromReading = false; // read by Little's law from the saturating step: a biased reading to match
        if (stated > 0) {
            cap = stated;
            capSource = "as the server states it";
            if (reading != null) {
                double served = reading.forCap();
                if (served < 0.7 * stated || served > 1.3 * stated) {
                    warnings.add(String.format(
                            Locale.ROOT,
                            "the server states %d requests at once, but %s served %.1f at once: another limit (KV "
                                    + "cache, a proxy, the client) binds first; the twin keeps the stated %d",
                            stated,
                            reading.probe().name(),
                            served,
                            stated));
                }
            }
        } else if (reading != null
                && reading.serverRunningMax() > 0
                && reading.serverRunningMax()
                        < Saturation.BINDING * reading.probe().users()) {
            // The server's own count of running requests at saturation: the cap itself, no bias to correct.
            cap = (int) Math.round(reading.serverRunningMax());
            capSource = "the server's /metrics: at most " + cap + " running during "
                    + reading.probe().name();
        } else if (reading == null && phases.batchCapRead() > 0) {
            cap = (int) Math.max(1, Math.round(phases.batchCapRead()));
            capSource = "read from the batch probes (no saturating step)";
        } else if (reading != null && sat.capBinds()) {
            cap = (int) Math.max(1, Math.round(reading.forCap()));
            capSource = "read from " + reading.probe().name();
            fromReading = true;
        } else {
            int users = reading == null
                    ? CalibrationPlan.SATURATE_USERS
                    : reading.probe().users();
            cap = 2 * users;
            capSource = "none below " + cap + " (served what it was sent)";
        }
        ParametricServer first = family.twin(0, cap, null);
        double[] warm = new TwinFit(first, quick).fit(observations).values();
        List<ParametricServer> byShape = new ArrayList<>();
        for (int i = 0; i < family.shapes().size(); i++) byShape.add(family.twin(i, cap, warm));
        TwinSelection.Choice choice = TwinSelection.best(byShape, observations, quick);
        int shape = choice.index();
        Observation unloaded = observations.stream()
                .filter(o -> o.id().equals(phases.design().unloadedProbe()))
                .findFirst()
                .orElse(null);
        Observation saturate = reading == null
                ? null
                : observations.stream()
                        .filter(o -> o.id().equals(reading.probe().name()))
                        .findFirst()
                        .orElse(null);
        if (fromReading && unloaded != null && saturate != null) {
            int read = cap;
            cap = CapMatch.match(
                    c -> family.twin(shape, c, warm),
                    saturate,
                    unloaded,
                    reading.probe().users(),
                    reading.served(),
                    read);
            if (cap != read) capSource += ", matched on the twin: " + read + " → " + cap;
        }
        FitReport report = TwinSelection.fit(
                family.twin(shape, cap, warm), family.twin(shape, cap, null), observations, full, folds);
        // A term at a bound matters where the twin cannot reproduce the probes; where it can, the terms only
        // trade off against each other.
        double worst = FitReport.medianErrorByKind(report.fitted()).values().stream()
                .filter(v -> !Double.isNaN(v))
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
        if (worst > FORCED_ERROR) {
            for (String w : pinned(first.parameters(), report.values())) {
                warnings.add(w + String.format(Locale.ROOT, " (the twin misses its probes by %.0f %%)", 100 * worst));
            }
        }
        return new Result(shape, cap, capSource, choice.errors(), report, warnings);
    }

    /** The parameters fitted at a bound of their range: the data pushed them past what the profile allows. */
    static List<String> pinned(List<Parameter> parameters, double[] values) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < parameters.size(); i++) {
            Parameter p = parameters.get(i);
            double u = p.unit(values[i]);
            // An overhead fitted at zero is physical, not forced.
            if ((u <= AT_BOUND && p.min() > 0) || u >= 1 - AT_BOUND) {
                boolean upper = u >= 1 - AT_BOUND;
                out.add(String.format(
                        Locale.ROOT,
                        "%s fitted at its %s bound (%.4g): %s",
                        p.name(),
                        upper ? "upper" : "lower",
                        upper ? p.max() : p.min(),
                        advice(p.name(), upper)));
            }
        }
        return out;
    }

    /** What a term pinned at a bound says about the profiles the fit started from. */
    private static String advice(String term, boolean upper) {
        return switch (term + (upper ? "+" : "-")) {
            case "memory_efficiency+" ->
                "the server decodes faster than the hardware profile's memory bandwidth allows; check "
                        + "--twin-hardware's memory_bandwidth_gb_s, --twin-weight-dtype (a quantised model reads "
                        + "fewer bytes) and --twin-model";
            case "memory_efficiency-" ->
                "decode is far slower than the hardware profile's memory bandwidth; check --twin-hardware "
                        + "(a CPU or consumer GPU needs its own profile) and --twin-tp";
            case "compute_efficiency+" ->
                "prefill is faster than the hardware profile's TFLOPs allow; check --twin-hardware's "
                        + "bf16_tflops/fp8_tflops and --twin-model's parameters";
            case "compute_efficiency-" ->
                "prefill is far slower than the hardware profile's TFLOPs; check --twin-hardware and --twin-model";
            default ->
                "the probes push it past the range the simulator allows; its neighbours absorb the rest, so read "
                        + "the twin's terms as a fit, and check the profiles given";
        };
    }
}
