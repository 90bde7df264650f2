package dev.headroom.optimizer.plan;

import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.WorkloadClass;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Ranks a plan's options by cost over the horizon and, with several classes and options, finds the cheapest mix. */
public final class Comparer {
    private final Policy policy;

    public Comparer(Policy policy) {
        this.policy = policy;
    }

    public Comparison compare(Plan plan) {
        List<Comparison.OptionRow> rows = new ArrayList<>();
        int last = plan.forecast().horizonMonths() - 1;
        for (Plan.OptionTotal t : plan.totals()) {
            List<PlanRow> mine = plan.rows().stream()
                    .filter(r -> r.option().equals(t.option()))
                    .toList();
            double tokens = mine.stream()
                    .mapToDouble(r -> r.inputTokens() + r.outputTokens())
                    .sum();
            double atCapacity = tokens <= 0
                    ? Double.NaN
                    : mine.stream()
                                    .mapToDouble(
                                            r -> r.dollarsPerMtokAtCapacity() * (r.inputTokens() + r.outputTokens()))
                                    .sum()
                            / tokens;
            double lastMonth = mine.stream()
                    .filter(r -> r.month() == last)
                    .mapToDouble(r -> r.cost().point())
                    .sum();
            List<Capacity> caps = plan.capacities().stream()
                    .filter(c -> c.option().equals(t.option()))
                    .toList();
            rows.add(new Comparison.OptionRow(
                    t.option(),
                    caps,
                    t.peakReplicas(),
                    lastMonth,
                    t.cost(),
                    atCapacity,
                    t.dollarsPerMtokAsPlanned(),
                    false));
        }
        rows.sort(Comparator.comparingDouble(r -> r.horizonCost().point()));
        if (!rows.isEmpty()) {
            Comparison.OptionRow first = rows.getFirst();
            rows.set(
                    0,
                    new Comparison.OptionRow(
                            first.option(),
                            first.capacities(),
                            first.peakReplicas(),
                            first.lastMonthCost(),
                            first.horizonCost(),
                            first.dollarsPerMtokAtCapacity(),
                            first.dollarsPerMtokAsPlanned(),
                            true));
        }
        boolean mixable = plan.forecast().classes().size() > 1 && plan.options().size() > 1;
        return new Comparison(plan, rows, mixable ? mix(plan) : null);
    }

    private Comparison.Mix mix(Plan plan) {
        List<WorkloadClass> classes = plan.forecast().classes();
        List<CatalogOption> options = plan.options();
        double[][] capacity = new double[classes.size()][options.size()];
        for (int c = 0; c < classes.size(); c++) {
            for (int o = 0; o < options.size(); o++) {
                String cls = classes.get(c).name(), opt = options.get(o).name();
                capacity[c][o] = plan.capacities().stream()
                        .filter(k -> k.workloadClass().equals(cls) && k.option().equals(opt))
                        .mapToDouble(Capacity::max)
                        .findFirst()
                        .orElse(0);
            }
        }
        double[] price = options.stream()
                .mapToDouble(o -> o.replicaHourPrice(policy.pricing()) * policy.hoursPerMonth())
                .toArray();
        MixOptimizer optimizer = new MixOptimizer();
        List<Comparison.MixMonth> months = new ArrayList<>();
        double total = 0;
        double[] singleTotals = new double[options.size()];
        for (int m = 0; m < plan.forecast().horizonMonths(); m++) {
            double[] rps = new double[classes.size()];
            for (int c = 0; c < classes.size(); c++) {
                rps[c] = classes.get(c).traffic().month(m, policy.hoursPerMonth()).stream()
                        .mapToDouble(Traffic.Hour::load)
                        .max()
                        .orElse(0);
            }
            MixOptimizer.Mix mix = optimizer.optimise(
                    rps, capacity, price, policy.utilizationTarget(), policy.redundancy(), policy.minReplicas());
            double bestSingle = Double.POSITIVE_INFINITY;
            for (int o = 0; o < options.size(); o++) {
                double cost = single(optimizer, rps, capacity, price, o);
                singleTotals[o] += cost;
                bestSingle = Math.min(bestSingle, cost);
            }
            Map<String, Integer> replicas = new LinkedHashMap<>();
            for (int o = 0; o < options.size(); o++) replicas.put(options.get(o).name(), mix.replicas()[o]);
            Map<String, Map<String, Double>> split = new LinkedHashMap<>();
            for (int c = 0; c < classes.size(); c++) {
                Map<String, Double> s = new LinkedHashMap<>();
                for (int o = 0; o < options.size(); o++) s.put(options.get(o).name(), mix.split()[c][o]);
                split.put(classes.get(c).name(), s);
            }
            months.add(new Comparison.MixMonth(m, replicas, split, mix.cost(), bestSingle));
            total += mix.cost();
        }
        int best = 0;
        for (int o = 1; o < options.size(); o++) if (singleTotals[o] < singleTotals[best]) best = o;
        return new Comparison.Mix(months, total, options.get(best).name(), singleTotals[best]);
    }

    /** One option alone, replicas shared by every class: the mix problem with the other options priced out. */
    private double single(MixOptimizer optimizer, double[] rps, double[][] capacity, double[] price, int only) {
        double[][] cap = new double[capacity.length][];
        for (int c = 0; c < capacity.length; c++) {
            cap[c] = new double[capacity[c].length];
            cap[c][only] = capacity[c][only];
        }
        try {
            return optimizer
                    .optimise(rps, cap, price, policy.utilizationTarget(), policy.redundancy(), policy.minReplicas())
                    .cost();
        } catch (IllegalArgumentException cannotServe) {
            return Double.POSITIVE_INFINITY;
        }
    }
}
