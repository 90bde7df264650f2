package dev.headroom.model.plan;

import dev.headroom.model.Measurer;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.fit.ObservedMetric;
import java.util.List;
import java.util.Map;

/**
 * One catalog option's replica as a model that load points can be run on (a calibrated twin of a server, or the
 * simulator's stock profile of the hardware), with the model's cross-validated error: where a class was not measured
 * on that option, {@code plan} searches the model for its capacity.
 *
 * @param option   the catalog option it models
 * @param source   what it is, for the plan's capacity source ({@code calibration.yaml}'s path, or {@code stock ...})
 * @param measurer runs a load point on the model (the virtual clock)
 * @param error    the model's cross-validated median absolute error by kind of metric (0.2 = 20 %)
 */
public record CapacityModel(String option, String source, Measurer measurer, Map<ObservedMetric.Kind, Double> error) {
    public CapacityModel {
        error = Map.copyOf(error);
        if (!error.containsKey(ObservedMetric.Kind.THROUGHPUT)) {
            throw new IllegalArgumentException(source + ": the model states no cross-validated throughput error");
        }
    }

    /**
     * How far a capacity modelled under these SLOs is widened: the largest cross-validated error among throughput and
     * the kinds of metric the SLOs bound (a kind the model was not scored on counts as its largest error).
     */
    public double widening(List<Slo> slos) {
        double worst =
                error.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double w = error.get(ObservedMetric.Kind.THROUGHPUT);
        for (Slo s : slos) {
            ObservedMetric.Kind k = kind(s.metric());
            if (k != null) w = Math.max(w, error.getOrDefault(k, worst));
        }
        return w;
    }

    private static ObservedMetric.Kind kind(SloMetric m) {
        return switch (m) {
            case TTFT, TTFT_FROM_SEND -> ObservedMetric.Kind.TTFT;
            case ITL, TPOT -> ObservedMetric.Kind.TPOT;
            case E2E -> ObservedMetric.Kind.E2E;
            case SESSION, ERROR_RATE -> null;
        };
    }
}
