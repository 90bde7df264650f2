package dev.headroom.optimizer.plan;

import dev.headroom.model.BadInputException;
import dev.headroom.model.SearchReport;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.MeasuredPoint;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * A replica's capacity — its max request rate under the SLO — from what Headroom measured. A max-rate search gives
 * it directly; a max-concurrency result becomes a rate by Little's law (concurrency ÷ mean e2e at that load), and the
 * capacity is marked derived. A search in sessions gives active users (max-concurrency) or new sessions/s
 * (max-rate), with the mean session duration. {@code where} names the input in error messages.
 */
public final class Capacities {
    private Capacities() {}

    /**
     * From a search: its answer and interval.
     *
     * @param probeAt the last probe the search ran at a load, or null when its directory is not at hand
     */
    public static Capacity fromSearch(
            String cls,
            String option,
            SearchReport search,
            DoubleFunction<MeasuredPoint> probeAt,
            String source,
            String where) {
        double value = search.value(), lo = search.ciLow(), hi = search.ciHigh();
        if (Double.isNaN(value))
            throw new BadInputException(where + ": the search found no passing load (stop: "
                    + search.stopReason().wireName() + "); there is no capacity to plan with");
        if (Double.isNaN(hi))
            throw new BadInputException(where + ": the boundary lies above the searched range (> " + search.max()
                    + "); search up to a larger load to know the capacity");
        if (search.run().sessions() != null) return inSessions(cls, option, search, probeAt, source, where);
        switch (search.objective()) {
            case "max-rate" -> {
                MeasuredPoint at = probeAt.apply(value);
                return new Capacity(
                        option,
                        cls,
                        value,
                        Math.min(lo, value),
                        Math.max(hi, value),
                        false,
                        at == null ? Double.NaN : at.prefillShare(),
                        source);
            }
            case "max-concurrency" -> {
                double rps = littleAt(probeAt, value, where);
                double rLo = littleAt(probeAt, lo, where), rHi = littleAt(probeAt, hi, where);
                MeasuredPoint at = probeAt.apply(value);
                return new Capacity(
                        option,
                        cls,
                        rps,
                        Math.min(Math.min(rLo, rHi), rps),
                        Math.max(Math.max(rLo, rHi), rps),
                        true,
                        at.prefillShare(),
                        source);
            }
            default ->
                throw new BadInputException(where + ": a " + search.objective() + " search does not measure "
                        + "capacity under the SLO; use a max-rate or max-concurrency search");
        }
    }

    /**
     * A search in sessions: max-concurrency gives active users, max-rate new sessions/s, each with the mean session
     * duration its probe at the answer measured (for Little's law between the two, and for counting tokens of users).
     */
    private static Capacity inSessions(
            String cls,
            String option,
            SearchReport search,
            DoubleFunction<MeasuredPoint> probeAt,
            String source,
            String where) {
        LoadUnit unit = switch (search.objective()) {
            case "max-concurrency" -> LoadUnit.USERS;
            case "max-rate" -> LoadUnit.SESSIONS;
            default ->
                throw new BadInputException(where + ": a " + search.objective() + " search does not measure "
                        + "capacity under the SLO; use a max-rate or max-concurrency search");
        };
        double value = search.value();
        // The probe at the answer, else at the largest passing load (a boundary may lie between probes).
        MeasuredPoint at = probeAt.apply(value);
        if (at == null) at = probeAt.apply(search.ciLow());
        double seconds = at == null ? Double.NaN : at.sessionMeanS();
        return new Capacity(
                option,
                cls,
                value,
                Math.min(search.ciLow(), value),
                Math.max(search.ciHigh(), value),
                false,
                at == null ? Double.NaN : at.prefillShare(),
                source,
                Double.NaN,
                unit,
                seconds > 0 ? seconds : Double.NaN);
    }

    /** Little's law at a load of the search: that load ÷ the mean e2e its probe measured. */
    private static double littleAt(DoubleFunction<MeasuredPoint> probeAt, double load, String where) {
        MeasuredPoint p = probeAt.apply(load);
        if (p == null)
            throw new BadInputException(where + ": no probe summary at concurrency " + load
                    + " to take its mean e2e from (the probe directories must sit beside search.json)");
        return Capacity.littlesLaw(load, p.e2eMeanMs() / 1000);
    }

    /** From a sweep: the last passing point before the first failing one; the failing one bounds the interval. */
    public static Capacity fromSweep(
            String cls, String option, List<MeasuredPoint> points, String source, String where) {
        MeasuredPoint pass = null, fail = null;
        for (MeasuredPoint p : points) {
            if (p.sessions()) throw notASessionSearch(where, "sweep");
            if (!p.sloGiven())
                throw new BadInputException(where + ": the sweep was run without an SLO; capacity is the "
                        + "largest load that meets the SLO");
            if (p.sloPass()) {
                if (fail == null) pass = p;
            } else if (fail == null) {
                fail = p;
            }
        }
        if (pass == null) throw new BadInputException(where + ": no point of the sweep meets its SLO");
        double rps = pass.requestsPerSecond();
        double hi = fail == null ? rps : Math.max(rps, fail.requestsPerSecond());
        return new Capacity(option, cls, rps, rps, hi, pass.closedLoop(), pass.prefillShare(), source);
    }

    /** From one passing probe: a lower bound on capacity, with no interval above it known. */
    public static Capacity fromProbe(String cls, String option, MeasuredPoint probe, String source, String where) {
        if (probe.sessions()) throw notASessionSearch(where, "probe");
        if (!probe.sloPass()) {
            throw new BadInputException(where + ": this probe does not meet its SLO (or had none); capacity needs a "
                    + "passing load — better, a search");
        }
        double rps = probe.requestsPerSecond();
        return new Capacity(option, cls, rps, rps, rps, probe.closedLoop(), probe.prefillShare(), source);
    }

    private static BadInputException notASessionSearch(String where, String what) {
        return new BadInputException(where + ": a " + what + " in sessions gives no capacity in sessions (its "
                + "completed requests per second are not sessions); give a search in sessions (search --load-unit "
                + "sessions), or a capacities YAML entry with max_users or max_sessions_per_s");
    }
}
