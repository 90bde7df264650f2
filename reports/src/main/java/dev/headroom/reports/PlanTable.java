package dev.headroom.reports;

import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Range;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The console tables of {@code plan} and {@code compare}. Dollars, replicas with [low–high], $/Mtok. */
public final class PlanTable {
    private PlanTable() {}

    public static String plan(Plan plan) {
        StringBuilder b = new StringBuilder();
        b.append(header(plan)).append('\n');
        for (CatalogOption o : plan.options()) {
            b.append(String.format(
                    Locale.ROOT,
                    "%noption %s (%d GPU/replica, $%s/GPU-hour %s)%n",
                    o.name(),
                    o.gpusPerReplica(),
                    ConsoleTable.n(o.pricePerGpuHour().get(plan.policy().pricing())),
                    plan.policy().pricing().wireName()));
            b.append(String.format(
                    Locale.ROOT,
                    "%-6s %-16s %-30s %-15s %-12s%n",
                    "month",
                    "replicas",
                    "cost",
                    "$/Mtok planned",
                    "utilization"));
            for (int m = 0; m < plan.forecast().horizonMonths(); m++) {
                final int month = m;
                List<PlanRow> rows = plan.rows().stream()
                        .filter(r -> r.option().equals(o.name()) && r.month() == month)
                        .toList();
                Range replicas = rows.stream().map(PlanRow::replicas).reduce(Range.ZERO, Range::plus);
                Range cost = rows.stream().map(PlanRow::cost).reduce(Range.ZERO, Range::plus);
                double tokens = rows.stream()
                        .mapToDouble(r -> r.inputTokens() + r.outputTokens())
                        .sum();
                double served = rows.stream()
                        .mapToDouble(r -> r.utilization() * r.meanReplicas())
                        .sum();
                double billed = rows.stream().mapToDouble(PlanRow::meanReplicas).sum();
                b.append(String.format(
                        Locale.ROOT,
                        "%-6d %-16s %-30s %-15s %-12s%n",
                        m + 1,
                        count(replicas),
                        dollars(cost),
                        tokens > 0 ? f2(cost.point() / (tokens / 1e6)) : "-",
                        billed > 0 ? pct(served / billed) : "-"));
            }
            Plan.OptionTotal t = plan.totals().stream()
                    .filter(x -> x.option().equals(o.name()))
                    .findFirst()
                    .orElseThrow();
            b.append(String.format(
                    Locale.ROOT,
                    "%-6s %-16s %-30s %-15s%n",
                    "total",
                    "peak " + count(t.peakReplicas()),
                    dollars(t.cost()),
                    f2(t.dollarsPerMtokAsPlanned())));
        }
        b.append('\n').append(capacities(plan));
        return b.toString();
    }

    public static String compare(Comparison c) {
        StringBuilder b = new StringBuilder();
        b.append(header(c.plan())).append('\n');
        List<String> caps = c.ranking().stream()
                .map(r -> r.capacities().stream()
                        .map(k -> k.workloadClass() + " " + ConsoleTable.n(k.max()) + " ["
                                + ConsoleTable.n(k.ciLow()) + "–" + ConsoleTable.n(k.ciHigh()) + "]"
                                + (k.unit() == LoadUnit.REQUESTS
                                        ? ""
                                        : " " + k.unit().label())
                                + (k.modelled() ? " modelled" : ""))
                        .collect(Collectors.joining(", ")))
                .toList();
        int capWidth = Math.max(28, caps.stream().mapToInt(String::length).max().orElse(0));
        int costWidth = Math.max(
                30,
                c.ranking().stream()
                        .mapToInt(r -> dollars(r.horizonCost()).length())
                        .max()
                        .orElse(0));
        String row = "%-5s %-8s %-" + capWidth + "s  %-14s %-12s %-" + costWidth + "s %-10s %-10s%n";
        b.append(String.format(
                Locale.ROOT,
                row,
                "rank",
                "option",
                c.plan().forecast().classes().stream().allMatch(k -> k.unit() == LoadUnit.REQUESTS)
                        ? "capacity per replica (req/s)"
                        : "capacity per replica",
                "peak replicas",
                "last month",
                "horizon cost",
                "$/Mtok cap",
                "planned"));
        for (int i = 0; i < c.ranking().size(); i++) {
            Comparison.OptionRow r = c.ranking().get(i);
            b.append(String.format(
                    Locale.ROOT,
                    row,
                    (i + 1) + (r.cheapest() ? "*" : ""),
                    r.option(),
                    caps.get(i),
                    count(r.peakReplicas()),
                    "$" + money(r.lastMonthCost()),
                    dollars(r.horizonCost()),
                    f2(r.dollarsPerMtokAtCapacity()),
                    f2(r.dollarsPerMtokAsPlanned())));
        }
        b.append("* cheapest over the horizon (point estimate); [low–high] from the capacity interval and the p90 "
                + "forecast\n");
        if (c.mix() != null) {
            Comparison.Mix mix = c.mix();
            Comparison.MixMonth last = mix.months().getLast();
            String fleet = last.replicas().entrySet().stream()
                    .filter(e -> e.getValue() > 0)
                    .map(e -> e.getValue() + " × " + e.getKey())
                    .collect(Collectors.joining(" + "));
            String split = last.split().entrySet().stream()
                    .map(e -> e.getKey() + " " + shares(e.getValue()))
                    .collect(Collectors.joining("; "));
            b.append(String.format(Locale.ROOT, "%ncheapest mix (month %d): %s; %s%n", last.month() + 1, fleet, split));
            b.append(String.format(
                    Locale.ROOT,
                    "mix over the horizon: $%s vs $%s for %s alone (both with replicas shared by "
                            + "the classes, every class at its peak hour): saving $%s (%s)%n",
                    money(mix.cost()),
                    money(mix.bestSingleCost()),
                    mix.bestSingleOption(),
                    money(mix.saving()),
                    mix.bestSingleCost() > 0 ? pct(mix.saving() / mix.bestSingleCost()) : "-"));
            // The table gives each class replicas of its own, so its cost for the same option is higher: say so.
            c.ranking().stream()
                    .filter(r -> r.option().equals(mix.bestSingleOption()))
                    .findFirst()
                    .filter(r -> Math.abs(r.horizonCost().point() - mix.bestSingleCost()) >= 0.5)
                    .ifPresent(r -> b.append(String.format(
                            Locale.ROOT,
                            "(the table's $%s for %s gives each class replicas of its own; one shared fleet rounds "
                                    + "up once and carries the redundancy once)%n",
                            money(r.horizonCost().point()),
                            r.option())));
        }
        b.append('\n').append(capacities(c.plan()));
        return b.toString();
    }

    private static String header(Plan plan) {
        return String.format(
                Locale.ROOT,
                "plan: %d month(s), %d class(es), %s scaling, utilization target %s, redundancy +%d, "
                        + "min replicas %d, %s pricing, %s h/month",
                plan.forecast().horizonMonths(),
                plan.forecast().classes().size(),
                plan.policy().hourly() ? "hourly" : "static",
                ConsoleTable.n(plan.policy().utilizationTarget()),
                plan.policy().redundancy(),
                plan.policy().minReplicas(),
                plan.policy().pricing().wireName(),
                ConsoleTable.n(plan.policy().hoursPerMonth()));
    }

    private static String capacities(Plan plan) {
        StringBuilder b = new StringBuilder();
        for (Capacity k : plan.capacities()) {
            double atCap = plan.rows().stream()
                    .filter(r ->
                            r.option().equals(k.option()) && r.workloadClass().equals(k.workloadClass()))
                    .mapToDouble(PlanRow::dollarsPerMtokAtCapacity)
                    .findFirst()
                    .orElse(Double.NaN);
            b.append(String.format(
                    Locale.ROOT,
                    "capacity %s@%s: %s %s per replica [%s–%s]%s, $/Mtok at capacity %s (%s)%n",
                    k.workloadClass(),
                    k.option(),
                    ConsoleTable.n(k.max()),
                    k.unit().label(),
                    ConsoleTable.n(k.ciLow()),
                    ConsoleTable.n(k.ciHigh()),
                    k.unit().sessions() && k.derived()
                            ? " derived by Little's law (mean session " + ConsoleTable.n(k.sessionSeconds()) + " s)"
                            : k.derived()
                                    ? " derived from a concurrency"
                                    : k.modelled()
                                            ? String.format(Locale.ROOT, " modelled (± %.1f %%)", k.modelError() * 100)
                                            : "",
                    f2(atCap),
                    k.source()));
        }
        return b.toString();
    }

    private static String shares(Map<String, Double> split) {
        return split.entrySet().stream()
                .filter(e -> e.getValue() > 1e-6)
                .map(e -> pct(e.getValue()) + " " + e.getKey())
                .collect(Collectors.joining(" + "));
    }

    private static String count(Range r) {
        return String.format(Locale.ROOT, "%.0f [%.0f–%.0f]", r.point(), r.low(), r.high());
    }

    private static String dollars(Range r) {
        return "$" + money(r.point()) + " [" + money(r.low()) + "–" + money(r.high()) + "]";
    }

    static String money(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String f2(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f %%", v * 100);
    }
}
