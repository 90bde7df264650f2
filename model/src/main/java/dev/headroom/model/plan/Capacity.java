package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/**
 * What one replica of a hardware option sustains for one workload class under its SLO: a request rate with an
 * interval.
 *
 * @param option       the catalog option measured
 * @param workloadClass the forecast class whose workload was measured
 * @param maxRps       requests per second one replica serves within the SLO
 * @param ciLow        low end of its interval (≤ maxRps)
 * @param ciHigh       high end (≥ maxRps)
 * @param derived      true when the rate came from a max concurrency by Little's law (concurrency ÷ mean e2e)
 * @param prefillShare share of a request's server time spent before its first token (for splitting cost between
 *                     input and output tokens); NaN when not measured
 * @param source       where the numbers came from (a file, or "yaml")
 * @param modelError   for a capacity modelled rather than measured ({@code plan --capacity-model}): the model's
 *                     cross-validated median absolute error its interval was widened by; NaN when measured
 */
public record Capacity(
        String option,
        String workloadClass,
        double maxRps,
        double ciLow,
        double ciHigh,
        boolean derived,
        double prefillShare,
        String source,
        double modelError) {
    public Capacity {
        if (!(maxRps > 0)) {
            throw new BadInputException(
                    "capacity " + workloadClass + "@" + option + ": max_rps must be > 0, got " + maxRps);
        }
        if (!(ciLow > 0 && ciLow <= maxRps && maxRps <= ciHigh)) {
            throw new BadInputException("capacity " + workloadClass + "@" + option + ": the interval [" + ciLow + ", "
                    + ciHigh + "] must be positive and contain max_rps " + maxRps);
        }
    }

    /** A measured capacity. */
    public Capacity(
            String option,
            String workloadClass,
            double maxRps,
            double ciLow,
            double ciHigh,
            boolean derived,
            double prefillShare,
            String source) {
        this(option, workloadClass, maxRps, ciLow, ciHigh, derived, prefillShare, source, Double.NaN);
    }

    /** Whether it came from a model of the hardware (a calibrated twin or a stock profile), not a measurement. */
    public boolean modelled() {
        return !Double.isNaN(modelError);
    }

    /** Little's law: a closed-loop max concurrency N at a mean end-to-end latency W sustains N ÷ W requests/s. */
    public static double littlesLaw(double concurrency, double meanE2eSeconds) {
        if (!(concurrency > 0) || !(meanE2eSeconds > 0)) {
            throw new BadInputException("Little's law needs a positive concurrency and mean e2e, got " + concurrency
                    + " and " + meanE2eSeconds + " s");
        }
        return concurrency / meanE2eSeconds;
    }
}
