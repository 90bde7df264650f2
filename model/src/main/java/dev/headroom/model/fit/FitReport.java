package dev.headroom.model.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A model fitted to observations: the values found, how well they reproduce the observations they were fitted on,
 * and how well models fitted without a source predict that source (cross-validated), by kind of metric.
 *
 * @param parameters the fitted parameters, with {@code values} in the same order
 * @param fitted     every observation's targets beside the final fit's predictions (in-sample)
 * @param heldOut    every observation's targets predicted by a fit that did not see its source; empty when not
 *                   cross-validated
 * @param evaluations load points the fits ran
 */
public record FitReport(
        List<Parameter> parameters,
        double[] values,
        List<Comparison> fitted,
        List<Comparison> heldOut,
        long evaluations) {

    /** Median absolute error of {@code comparisons} by kind, every statistic together; NaN for a kind with none. */
    public static Map<ObservedMetric.Kind, Double> medianErrorByKind(List<Comparison> comparisons) {
        Map<ObservedMetric.Kind, Double> out = new EnumMap<>(ObservedMetric.Kind.class);
        for (ObservedMetric.Kind k : ObservedMetric.Kind.values()) {
            List<Comparison> of = new ArrayList<>();
            for (Comparison c : comparisons) if (c.target().metric().kind() == k) of.add(c);
            out.put(k, medianError(of));
        }
        return out;
    }

    /**
     * Median absolute error of {@code comparisons} by kind, of the central statistics (mean, median) or of the tails
     * (p90 and above, {@link Target#isTail}); NaN for a kind with none.
     */
    public static Map<ObservedMetric.Kind, Double> medianErrorByKind(List<Comparison> comparisons, boolean tails) {
        Map<ObservedMetric.Kind, Double> out = new EnumMap<>(ObservedMetric.Kind.class);
        for (ObservedMetric.Kind k : ObservedMetric.Kind.values()) out.put(k, medianError(of(comparisons, k, tails)));
        return out;
    }

    /** The comparisons of kind {@code k}, central statistics or tails. */
    public static List<Comparison> of(List<Comparison> comparisons, ObservedMetric.Kind k, boolean tails) {
        List<Comparison> of = new ArrayList<>();
        for (Comparison c : comparisons) {
            if (c.target().metric().kind() == k && c.target().isTail() == tails) of.add(c);
        }
        return of;
    }

    /** Median absolute error of {@code comparisons}; NaN when there are none. */
    public static double medianError(List<Comparison> comparisons) {
        if (comparisons.isEmpty()) return Double.NaN;
        double[] e = comparisons.stream()
                .mapToDouble(Comparison::absoluteError)
                .sorted()
                .toArray();
        int n = e.length;
        return n % 2 == 1 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
    }

    /** The fitted value of the parameter named {@code name} in {@code group} (null: a global one). */
    public double value(String name, String group) {
        for (int i = 0; i < parameters.size(); i++) {
            Parameter p = parameters.get(i);
            if (p.name().equals(name) && java.util.Objects.equals(p.group(), group)) return values[i];
        }
        throw new IllegalArgumentException("no parameter " + name + (group == null ? "" : " in " + group));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FitReport r
                && parameters.equals(r.parameters)
                && Arrays.equals(values, r.values)
                && fitted.equals(r.fitted)
                && heldOut.equals(r.heldOut)
                && evaluations == r.evaluations;
    }

    @Override
    public int hashCode() {
        return parameters.hashCode() * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "FitReport" + parameters + Arrays.toString(values);
    }
}
