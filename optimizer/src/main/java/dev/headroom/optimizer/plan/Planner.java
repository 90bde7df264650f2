package dev.headroom.optimizer.plan;

import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.Range;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.WorkloadClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns measured capacity into replicas, cost and dollars per million tokens over a forecast (the arithmetic the
 * docs/planning.md works through):
 * <ul>
 *   <li>replicas in an hour = ⌈load ÷ (capacity × utilization target)⌉ + redundancy, 0 when the load is 0, never
 *       below min_replicas, load and capacity in the class's unit (requests/s, sessions/s or active users); static
 *       scaling sizes each month for its busiest hour;</li>
 *   <li>cost = replicas × GPUs per replica × price per GPU-hour × hours (static: × hours per month);</li>
 *   <li>tokens served = requests (or sessions) per second × 3,600 × (isl + osl) per hour, tokens per session for a
 *       class in sessions; active users serve users ÷ mean session duration sessions per second;</li>
 *   <li>the range: the same plan at the capacity interval's high end (low) and at its low end with the p90
 *       forecast (high).</li>
 * </ul>
 */
public final class Planner {
    private final Policy policy;

    public Planner(Policy policy) {
        this.policy = policy;
    }

    /** Replicas one hour at {@code load} needs on a replica that sustains {@code capacity} (both in one unit). */
    public int replicas(double load, double capacity) {
        int n = load <= 0
                ? 0
                : (int) Math.ceil(load / (capacity * policy.utilizationTarget()) - 1e-9) + policy.redundancy();
        return Math.max(n, policy.minReplicas());
    }

    /** The plan of every class on every option; a missing capacity is an error naming it. */
    public Plan plan(Forecast forecast, List<CatalogOption> options, List<Capacity> capacities) {
        // Each capacity in its class's unit (active users and sessions/s convert by Little's law).
        Map<String, Capacity> byKey = new LinkedHashMap<>();
        List<Capacity> inUnits = new ArrayList<>();
        for (Capacity c : capacities) {
            Capacity in = forecast.classes().stream()
                    .filter(k -> k.name().equals(c.workloadClass()))
                    .findFirst()
                    .map(k -> c.in(k.unit()))
                    .orElse(c);
            if (in.unit() == LoadUnit.USERS && Double.isNaN(in.sessionSeconds())) {
                throw new BadInputException("capacity " + c.workloadClass() + "@" + c.option() + " (" + c.source()
                        + ") is in users: counting the sessions (and tokens) they serve needs the mean session "
                        + "duration (session_s), which a search in sessions records");
            }
            inUnits.add(in);
            byKey.put(c.workloadClass() + "@" + c.option(), in);
        }
        List<PlanRow> rows = new ArrayList<>();
        List<Plan.OptionTotal> totals = new ArrayList<>();
        List<Plan.HourRow> hours = new ArrayList<>();
        for (CatalogOption o : options) {
            double price = o.replicaHourPrice(policy.pricing());
            Range total = Range.ZERO;
            double gpuHours = 0, in = 0, out = 0;
            double[] peakPoint = new double[forecast.horizonMonths()],
                    peakLow = new double[forecast.horizonMonths()],
                    peakHigh = new double[forecast.horizonMonths()];
            for (WorkloadClass wc : forecast.classes()) {
                Capacity cap = byKey.get(wc.name() + "@" + o.name());
                if (cap == null) throw new MissingCapacityException(wc, o);
                for (int m = 0; m < forecast.horizonMonths(); m++) {
                    List<Traffic.Hour> month = wc.traffic().month(m, policy.hoursPerMonth());
                    // Requests (or sessions) served per second per unit of load: 1 for a rate; for active users,
                    // one session per mean session duration.
                    double served = cap.servedPerSecond() / cap.max();
                    Sizing point = size(month, cap.max(), 1);
                    Sizing low = size(month, cap.ciHigh(), 1);
                    Sizing high = size(month, cap.ciLow(), wc.traffic().p90());
                    double inTok = 0, outTok = 0, loadHours = 0;
                    for (Traffic.Hour h : month) {
                        double r = h.load() * served * 3600 * h.weight();
                        loadHours += h.load() * h.weight();
                        inTok += r * wc.isl();
                        outTok += r * wc.osl();
                        hours.add(new Plan.HourRow(
                                m,
                                h.dayOfWeek(),
                                h.hourOfDay(),
                                wc.name(),
                                o.name(),
                                h.load(),
                                replicas(h.load(), cap.max()),
                                h.weight()));
                    }
                    Range cost =
                            new Range(point.replicaHours * price, low.replicaHours * price, high.replicaHours * price);
                    double atCapacity = price / (cap.servedPerSecond() * 3600 * wc.tokensPerUnit() / 1e6);
                    double share = cap.prefillShare();
                    rows.add(new PlanRow(
                            m,
                            wc.name(),
                            o.name(),
                            new Range(point.peak, low.peak, high.peak),
                            point.replicaHours / hoursOf(month),
                            point.replicaHours * o.gpusPerReplica(),
                            cost,
                            inTok,
                            outTok,
                            atCapacity,
                            perMtok(cost.point(), inTok + outTok),
                            perMtok(cost.point(), outTok),
                            Double.isNaN(share) ? Double.NaN : perMtok(cost.point() * share, inTok),
                            Double.isNaN(share) ? Double.NaN : perMtok(cost.point() * (1 - share), outTok),
                            point.replicaHours == 0 ? 0 : loadHours / (point.replicaHours * cap.max())));
                    total = total.plus(cost);
                    gpuHours += point.replicaHours * o.gpusPerReplica();
                    in += inTok;
                    out += outTok;
                    peakPoint[m] += point.peak;
                    peakLow[m] += low.peak;
                    peakHigh[m] += high.peak;
                }
            }
            totals.add(new Plan.OptionTotal(
                    o.name(),
                    new Range(max(peakPoint), max(peakLow), max(peakHigh)),
                    gpuHours,
                    total,
                    in,
                    out,
                    perMtok(total.point(), in + out),
                    perMtok(total.point(), out)));
        }
        return new Plan(policy, forecast, List.copyOf(options), List.copyOf(inUnits), rows, totals, hours);
    }

    /** Replica-hours billed in a month and its busiest hour's replicas, at a capacity and a traffic scale. */
    private Sizing size(List<Traffic.Hour> month, double capacity, double scale) {
        int peak = 0;
        double replicaHours = 0;
        for (Traffic.Hour h : month) {
            int n = replicas(h.load() * scale, capacity);
            peak = Math.max(peak, n);
            replicaHours += n * h.weight();
        }
        // Static: the whole month is billed at its busiest hour's fleet.
        if (!policy.hourly()) replicaHours = peak * policy.hoursPerMonth();
        return new Sizing(peak, replicaHours);
    }

    private double hoursOf(List<Traffic.Hour> month) {
        return policy.hourly()
                ? month.stream().mapToDouble(Traffic.Hour::weight).sum()
                : policy.hoursPerMonth();
    }

    private record Sizing(int peak, double replicaHours) {}

    private static double perMtok(double dollars, double tokens) {
        return tokens <= 0 ? Double.NaN : dollars / (tokens / 1e6);
    }

    private static double max(double[] v) {
        double m = 0;
        for (double x : v) m = Math.max(m, x);
        return m;
    }

    /** A class × option the plan needs and no capacity covers: says what to measure and how to give it. */
    public static final class MissingCapacityException extends BadInputException {
        private final WorkloadClass workloadClass;
        private final CatalogOption option;

        MissingCapacityException(WorkloadClass wc, CatalogOption o) {
            super(
                    wc.session() == null
                            ? "no capacity for class " + wc.name() + " on option " + o.name()
                                    + ": measure it on that hardware "
                                    + "with a max-rate search (slo '" + wc.slo() + "', isl " + Math.round(wc.isl())
                                    + ", osl "
                                    + Math.round(wc.osl()) + ") and give it as {capacity} " + wc.name() + "@" + o.name()
                                    + "=RUN/search.json, or model it with {capacity-model} " + o.name() + "=stock (or "
                                    + "=RUN/calibration.yaml), or leave the option out with {option}"
                            : "no capacity for class " + wc.name() + " on option " + o.name()
                                    + ": measure it on that hardware "
                                    + "with a search in sessions (search --load-unit sessions --objective "
                                    + (wc.unit() == LoadUnit.USERS ? "max-concurrency" : "max-rate") + " --turns "
                                    + wc.session().turns() + " --turn-isl "
                                    + Math.round(wc.session().turnIsl())
                                    + " --turn-osl " + Math.round(wc.session().turnOsl()) + ", slo '" + wc.slo()
                                    + "') and give it as {capacity} " + wc.name() + "@" + o.name()
                                    + "=RUN/search.json, or leave the option out with {option}");
            this.workloadClass = wc;
            this.option = o;
        }

        public WorkloadClass workloadClass() {
            return workloadClass;
        }

        public CatalogOption option() {
            return option;
        }
    }
}
