package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;
import static dev.headroom.reports.html.Numbers.money;

import dev.headroom.model.Slo;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.Range;
import dev.headroom.reports.PlanJson;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.chart.Chart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** A plan or a comparison: replicas and cost over the horizon per option with their ranges, $/Mtok per option. */
final class PlanReportPage {
    private PlanReportPage() {}

    static Page build(PlanJson.Stored plan, boolean compare) {
        Page page = new Page(
                compare
                        ? "Headroom compare — " + plan.options().size() + " options"
                        : "Headroom plan — " + plan.horizonMonths() + " months");
        Header facts = Header.of(
                compare ? ResultFiles.Kind.COMPARE : ResultFiles.Kind.PLAN, plan.toolVersion(), plan.createdAt());
        Policy p = plan.policy();
        facts.row(
                "policy",
                Page.esc("utilization target " + p.utilizationTarget() + ", redundancy +" + p.redundancy() + ", "
                        + (p.hourly() ? "hourly" : "static") + " scaling, min replicas " + p.minReplicas() + ", "
                        + p.pricing().wireName() + " pricing, " + p.hoursPerMonth() + " h/month"));
        StringBuilder classes = new StringBuilder();
        for (PlanJson.StoredClass c : plan.classes()) {
            classes.append(Page.esc(c.name() + ": " + c.isl() + " → " + c.osl() + " tokens"
                            + (c.unit().sessions()
                                    ? " per session, counted in " + c.unit().label()
                                    : "")
                            + " under " + c.slo() + " (p90 × " + c.p90Factor() + ")"))
                    .append("<br>");
        }
        facts.row("classes", classes.toString());
        page.facts(facts.rows());
        if (compare) ranking(page, plan);
        int months = plan.horizonMonths();
        List<String> options = plan.options();
        double[] x = new double[months];
        for (int m = 0; m < months; m++) x[m] = m + 1;
        // Options far apart (2 replicas beside 60) each stay readable: the axis goes log where they span a decade.
        Chart replicas = new Chart("Replicas at the busiest hour, per month", "month", "replicas").logYIfWide();
        Chart cost = new Chart("Cost per month", "month", "dollars").logYIfWide();
        for (String o : options) {
            double[][] r = sum(plan, o, months, PlanRow::replicas), c = sum(plan, o, months, PlanRow::cost);
            replicas.band(o + " range", x, r[1], r[2]).line(o, x, r[0]);
            cost.band(o + " range", x, c[1], c[2]).line(o, x, c[0]);
        }
        List<Chart> charts = new ArrayList<>(List.of(replicas, cost));
        List<String> captions = new ArrayList<>(List.of(
                "Replicas per option (all classes, each on its own replicas); the band runs from the plan at the "
                        + "capacity "
                        + "interval's high end to the plan at its low end with the p90 forecast.",
                "Monthly cost per option with the same range."));
        double[] perMtok = new double[options.size()], atCap = new double[options.size()];
        for (int i = 0; i < options.size(); i++) {
            for (Plan.OptionTotal t : plan.totals()) {
                if (t.option().equals(options.get(i))) perMtok[i] = t.dollarsPerMtokAsPlanned();
            }
            double tokens = 0, weighted = 0;
            for (PlanRow row : plan.months()) {
                if (!row.option().equals(options.get(i))) continue;
                double tk = row.inputTokens() + row.outputTokens();
                tokens += tk;
                weighted += tk * row.dollarsPerMtokAtCapacity();
            }
            atCap[i] = tokens > 0 ? weighted / tokens : Double.NaN;
        }
        charts.add(new Chart("$ per million tokens, as planned", "option", "$/Mtok")
                .bars("as planned", options, perMtok, labels(perMtok)));
        captions.add("Plan cost ÷ tokens served over the horizon: with headroom, redundancy and idle hours.");
        charts.add(new Chart("$ per million tokens at SLO capacity", "option", "$/Mtok")
                .bars("at capacity", options, atCap, labels(atCap)));
        captions.add("The hardware's best case at the SLO (replica-hour price ÷ tokens per hour at capacity), blended "
                + "over the "
                + "classes by tokens. Only one SLO per class was measured, so $/Mtok against the SLO is a "
                + "single point per option.");
        page.h2("Over the horizon");
        page.charts(charts, captions);
        List<List<String>> rows = new ArrayList<>();
        for (Plan.OptionTotal t : plan.totals()) {
            rows.add(List.of(
                    Page.esc(t.option()),
                    f(t.peakReplicas().point()) + " [" + f(t.peakReplicas().low()) + "–"
                            + f(t.peakReplicas().high()) + "]",
                    money(t.cost().point()) + " [" + money(t.cost().low()) + "–"
                            + money(t.cost().high()) + "]",
                    f(t.gpuHours()),
                    f(t.dollarsPerMtokAsPlanned())));
        }
        page.table(List.of("option", "peak replicas", "horizon cost", "GPU-hours", "$/Mtok as planned"), rows);
        page.h2("Capacity per replica");
        List<List<String>> caps = new ArrayList<>();
        for (PlanJson.StoredCapacity k : plan.capacities()) {
            caps.add(List.of(
                    Page.esc(k.workloadClass() + "@" + k.option()),
                    f(k.max()) + " [" + f(k.ciLow()) + "–" + f(k.ciHigh()) + "] "
                            + k.unit().label(),
                    k.modelled() ? "modelled, ± " + Numbers.pct(k.modelError()) : "measured",
                    Page.esc(k.source())));
        }
        page.table(List.of("class@option", "per replica", "basis", "source"), caps);
        if (!plan.verify().isEmpty()) verify(page, plan.verify());
        return page;
    }

    /** The simulator checks of --verify with what the console prints: each SLO's observed value and the split. */
    private static void verify(Page page, List<PlanJson.StoredCheck> checks) {
        page.h2("Verified in the simulator");
        List<List<String>> v = new ArrayList<>();
        StringBuilder notes = new StringBuilder();
        for (PlanJson.StoredCheck c : checks) {
            PlanJson.StoredSplit split = c.split();
            v.add(List.of(
                    Page.esc(c.workloadClass() + "@" + c.option()),
                    String.valueOf(c.month()),
                    f(c.rps()),
                    c.planned().replicas() + "<br>" + verdict(c.planned()),
                    c.lean().replicas() + "<br>" + verdict(c.lean()),
                    c.smallest() == null
                            ? "none of up to " + c.searchedUpTo() + " replicas"
                            : c.smallest().replicas() + "<br>" + verdict(c.smallest()),
                    c.smallest() == null || split == null
                            ? ""
                            : Page.esc(String.format(
                                    Locale.ROOT,
                                    "%d = %d smallest %s %d capacity estimate + %d headroom + %d redundancy",
                                    c.planned().replicas(),
                                    c.smallest().replicas(),
                                    split.capacityEstimate() < 0 ? "−" : "+",
                                    Math.abs(split.capacityEstimate()),
                                    split.headroom(),
                                    split.redundancy()))));
            String note = PlanJson.attainmentNote(c);
            if (!note.isEmpty())
                notes.append(Page.esc(c.workloadClass() + "@" + c.option() + ", month " + c.month() + ": " + note))
                        .append("<br>");
        }
        page.table(
                List.of(
                        "class@option",
                        "month",
                        "req/s",
                        "planned",
                        "without headroom and redundancy",
                        "smallest passing",
                        "planned over smallest"),
                v);
        if (!notes.isEmpty()) page.p(notes.toString());
    }

    /** Bar labels as the tables print the same numbers. */
    private static List<String> labels(double[] v) {
        List<String> out = new ArrayList<>();
        for (double x : v) out.add(f(x));
        return out;
    }

    /** PASS or FAIL, each SLO's observed value with its unit, and the attainment — as the console line says. */
    private static String verdict(PlanJson.StoredFleet fleet) {
        StringBuilder b = new StringBuilder(
                fleet.sloPass() ? "<span class=\"ok\">PASS</span>" : "<span class=\"bad\">FAIL</span>");
        for (PlanJson.StoredSlo x : fleet.slo()) {
            boolean rate = Slo.parse(x.slo()).isRate();
            b.append("<br>")
                    .append(Page.esc(x.slo()))
                    .append(" observed ")
                    .append(rate ? Numbers.pct(x.observed()) : f(x.observed()) + " ms")
                    .append(x.pass() ? " ok" : " <span class=\"bad\">missed</span>");
        }
        return b.append("<br>attainment ")
                .append(Numbers.pct(fleet.sloAttainment()))
                .toString();
    }

    private static void ranking(Page page, PlanJson.Stored c) {
        page.h2("Ranking");
        List<List<String>> rows = new ArrayList<>();
        for (PlanJson.Ranked r : c.ranking()) {
            StringBuilder caps = new StringBuilder();
            r.capacities()
                    .forEach(k -> caps.append(Page.esc(k.workloadClass()))
                            .append(" ")
                            .append(f(k.max()))
                            .append(" [")
                            .append(f(k.ciLow()))
                            .append("–")
                            .append(f(k.ciHigh()))
                            .append(k.unit().sessions() ? "] " + k.unit().label() : "]")
                            .append(k.modelled() ? " modelled " : " "));
            Range horizon = r.horizonCost();
            rows.add(List.of(
                    r.rank() + (r.cheapest() ? " (cheapest)" : ""),
                    Page.esc(r.option()),
                    caps.toString(),
                    f(r.peakReplicas().point()),
                    money(r.lastMonthCost()),
                    money(horizon.point()) + " [" + money(horizon.low()) + "–" + money(horizon.high()) + "]",
                    f(r.dollarsPerMtokAtCapacity()),
                    f(r.dollarsPerMtokAsPlanned())));
        }
        page.table(
                List.of(
                        "rank",
                        "option",
                        "capacity per replica (req/s unless stated)",
                        "peak replicas",
                        "last month",
                        "horizon cost",
                        "$/Mtok at capacity",
                        "$/Mtok planned"),
                rows);
        PlanJson.StoredMix mix = c.mix();
        if (mix != null) {
            page.p(Page.esc(String.format(
                    Locale.ROOT,
                    "Cheapest mix over the horizon: %s vs %s for %s alone; saving %s.",
                    money(mix.cost()),
                    money(mix.bestSingleCost()),
                    mix.bestSingleOption(),
                    money(mix.saving()))));
        }
    }

    /** Per month: the sum over classes of {point, low, high} of a Range field for one option. */
    private static double[][] sum(PlanJson.Stored plan, String option, int months, Function<PlanRow, Range> field) {
        double[][] out = new double[3][months];
        for (PlanRow row : plan.months()) {
            if (!row.option().equals(option)) continue;
            int m = row.month();
            if (m < 0 || m >= months) continue;
            Range r = field.apply(row);
            out[0][m] += r.point();
            out[1][m] += r.low();
            out[2][m] += r.high();
        }
        return out;
    }
}
