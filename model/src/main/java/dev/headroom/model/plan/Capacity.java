package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/**
 * What one replica of a hardware option sustains for one workload class under its SLO: a load in the class's unit
 * (requests/s, new sessions/s or active users) with an interval.
 *
 * @param option       the catalog option measured
 * @param workloadClass the forecast class whose workload was measured
 * @param max          the load one replica serves within the SLO, in {@code unit}
 * @param ciLow        low end of its interval (≤ max)
 * @param ciHigh       high end (≥ max)
 * @param derived      true when the value was converted by Little's law from another unit (a max concurrency into a
 *                     rate, concurrency ÷ mean e2e; active users into sessions/s and back, by the mean session
 *                     duration)
 * @param prefillShare share of a request's server time spent before its first token (for splitting cost between
 *                     input and output tokens); NaN when not measured
 * @param source       where the numbers came from (a file, or "yaml")
 * @param modelError   for a capacity modelled rather than measured ({@code plan --capacity-model}): the model's
 *                     cross-validated median absolute error its interval was widened by; NaN when measured
 * @param unit         what {@code max} counts
 * @param sessionSeconds for a capacity in sessions or users: the mean duration of a completed session at that load
 *                     (Little's law between the two); NaN when not known or for requests
 */
public record Capacity(
        String option,
        String workloadClass,
        double max,
        double ciLow,
        double ciHigh,
        boolean derived,
        double prefillShare,
        String source,
        double modelError,
        LoadUnit unit,
        double sessionSeconds) {
    public Capacity {
        if (unit == null) unit = LoadUnit.REQUESTS;
        String key = "max_" + unit.key();
        if (!(max > 0)) {
            throw new BadInputException(
                    "capacity " + workloadClass + "@" + option + ": " + key + " must be > 0, got " + max);
        }
        if (!(ciLow > 0 && ciLow <= max && max <= ciHigh)) {
            throw new BadInputException("capacity " + workloadClass + "@" + option + ": the interval [" + ciLow + ", "
                    + ciHigh + "] must be positive and contain " + key + " " + max);
        }
        if (!Double.isNaN(sessionSeconds) && !(sessionSeconds > 0)) {
            throw new BadInputException("capacity " + workloadClass + "@" + option
                    + ": the mean session duration must be > 0 s, got " + sessionSeconds);
        }
    }

    /** A measured capacity in requests/s. */
    public Capacity(
            String option,
            String workloadClass,
            double max,
            double ciLow,
            double ciHigh,
            boolean derived,
            double prefillShare,
            String source) {
        this(option, workloadClass, max, ciLow, ciHigh, derived, prefillShare, source, Double.NaN);
    }

    /** A capacity in requests/s, modelled when {@code modelError} is a number. */
    public Capacity(
            String option,
            String workloadClass,
            double max,
            double ciLow,
            double ciHigh,
            boolean derived,
            double prefillShare,
            String source,
            double modelError) {
        this(
                option,
                workloadClass,
                max,
                ciLow,
                ciHigh,
                derived,
                prefillShare,
                source,
                modelError,
                LoadUnit.REQUESTS,
                Double.NaN);
    }

    /** Whether it came from a model of the hardware (a calibrated twin or a stock profile), not a measurement. */
    public boolean modelled() {
        return !Double.isNaN(modelError);
    }

    /**
     * This capacity in {@code target}: itself when already in it; active users and new sessions/s turn into each
     * other by Little's law with the mean session duration (users = sessions/s × duration), and the result is
     * marked derived. Requests and sessions do not convert: the error says what to measure.
     */
    public Capacity in(LoadUnit target) {
        if (target == unit) return this;
        String what = "capacity " + workloadClass + "@" + option + " (" + source + ")";
        if (!target.sessions() || !unit.sessions()) {
            throw new BadInputException(what + " is in " + unit.wireName() + ", class " + workloadClass + " in "
                    + target.wireName() + ": "
                    + (target.sessions()
                            ? "measure it with a search in sessions (search --load-unit sessions)"
                            : "measure it with a search of independent requests"));
        }
        if (Double.isNaN(sessionSeconds)) {
            throw new BadInputException(what + " is in " + unit.wireName() + " and class " + workloadClass + " in "
                    + target.wireName() + ": converting needs the mean session duration at that load (session_s), "
                    + "which a search in sessions records");
        }
        double f = target == LoadUnit.USERS ? sessionSeconds : 1 / sessionSeconds;
        return new Capacity(
                option,
                workloadClass,
                max * f,
                ciLow * f,
                ciHigh * f,
                true,
                prefillShare,
                source,
                modelError,
                target,
                sessionSeconds);
    }

    /** Requests (or sessions, for a class in sessions or users) per second one replica serves at this capacity. */
    public double servedPerSecond() {
        return unit == LoadUnit.USERS ? max / sessionSeconds : max;
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
