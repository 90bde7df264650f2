package dev.headroom.reports.html;

import static dev.headroom.reports.html.Numbers.f;
import static dev.headroom.reports.html.Numbers.money;
import static dev.headroom.reports.html.Numbers.num;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.reports.chart.Chart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A plan or a comparison: replicas and cost over the horizon per option with their ranges, $/Mtok per option. */
final class PlanReportPage {
    private PlanReportPage() {}

    static Page build(JsonNode result, boolean compare) {
        JsonNode plan = compare ? result.path("plan") : result;
        Page page = new Page(
                compare
                        ? "Headroom compare — " + plan.path("options").size() + " options"
                        : "Headroom plan — " + plan.path("horizon_months").asInt() + " months");
        List<String[]> facts = Header.of(plan, compare ? "compare" : "plan");
        JsonNode p = plan.path("policy");
        facts.add(new String[] {
            "policy",
            Page.esc("utilization target " + p.path("utilization_target").asText() + ", redundancy +"
                    + p.path("redundancy").asText() + ", " + p.path("scaling").asText() + " scaling, min replicas "
                    + p.path("min_replicas").asText() + ", " + p.path("pricing").asText() + " pricing, "
                    + p.path("hours_per_month").asText() + " h/month")
        });
        StringBuilder classes = new StringBuilder();
        for (JsonNode c : plan.path("classes")) {
            classes.append(Page.esc(c.path("name").asText() + ": "
                            + c.path("isl").asText() + " → " + c.path("osl").asText() + " tokens under "
                            + c.path("slo").asText() + " (p90 × "
                            + c.path("p90_factor").asText() + ")"))
                    .append("<br>");
        }
        facts.add(new String[] {"classes", classes.toString()});
        page.facts(facts);
        if (compare) ranking(page, result);
        int months = plan.path("horizon_months").asInt();
        List<String> options = new ArrayList<>();
        plan.path("options").forEach(o -> options.add(o.path("name").asText()));
        double[] x = new double[months];
        for (int m = 0; m < months; m++) x[m] = m + 1;
        Chart replicas = new Chart("Replicas at the busiest hour, per month", "month", "replicas");
        Chart cost = new Chart("Cost per month", "month", "dollars");
        for (String o : options) {
            double[][] r = sum(plan, o, months, "replicas"), c = sum(plan, o, months, "cost");
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
            for (JsonNode t : plan.path("totals")) {
                if (t.path("option").asText().equals(options.get(i)))
                    perMtok[i] = num(t.at("/dollars_per_mtok/as_planned"));
            }
            double tokens = 0, weighted = 0;
            for (JsonNode row : plan.path("months")) {
                if (!row.path("option").asText().equals(options.get(i))) continue;
                double tk = num(row.at("/tokens/input")) + num(row.at("/tokens/output"));
                tokens += tk;
                weighted += tk * num(row.at("/dollars_per_mtok/at_capacity"));
            }
            atCap[i] = tokens > 0 ? weighted / tokens : Double.NaN;
        }
        charts.add(
                new Chart("$ per million tokens, as planned", "option", "$/Mtok").bars("as planned", options, perMtok));
        captions.add("Plan cost ÷ tokens served over the horizon: with headroom, redundancy and idle hours.");
        charts.add(new Chart("$ per million tokens at SLO capacity", "option", "$/Mtok")
                .bars("at capacity", options, atCap));
        captions.add("The hardware's best case at the SLO (replica-hour price ÷ tokens per hour at capacity), blended "
                + "over the "
                + "classes by tokens. Only one SLO per class was measured, so $/Mtok against the SLO is a "
                + "single point per option.");
        page.h2("Over the horizon");
        page.charts(charts, captions);
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode t : plan.path("totals")) {
            rows.add(List.of(
                    Page.esc(t.path("option").asText()),
                    f(t.at("/peak_replicas/point")) + " [" + f(t.at("/peak_replicas/low")) + "–"
                            + f(t.at("/peak_replicas/high")) + "]",
                    money(num(t.at("/cost/point"))) + " [" + money(num(t.at("/cost/low"))) + "–"
                            + money(num(t.at("/cost/high"))) + "]",
                    f(t.path("gpu_hours")),
                    f(t.at("/dollars_per_mtok/as_planned"))));
        }
        page.table(List.of("option", "peak replicas", "horizon cost", "GPU-hours", "$/Mtok as planned"), rows);
        if (plan.path("verify").size() > 0) {
            page.h2("Verified in the simulator");
            List<List<String>> v = new ArrayList<>();
            for (JsonNode c : plan.path("verify")) {
                v.add(List.of(
                        Page.esc(c.path("class").asText() + "@"
                                + c.path("option").asText()),
                        c.path("month").asText(),
                        f(c.path("rps")),
                        c.at("/planned/replicas").asText(),
                        verdict(c.path("planned")),
                        c.at("/lean/replicas").asText(),
                        verdict(c.path("lean"))));
            }
            page.table(
                    List.of("class@option", "month", "req/s", "planned", "planned result", "lean", "lean result"), v);
        }
        return page;
    }

    private static String verdict(JsonNode fleet) {
        return (fleet.path("slo_pass").asBoolean()
                        ? "<span class=\"ok\">pass</span>"
                        : "<span class=\"bad\">FAIL</span>")
                + ", attainment " + Numbers.pct(num(fleet.path("slo_attainment")));
    }

    private static void ranking(Page page, JsonNode c) {
        page.h2("Ranking");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : c.path("ranking")) {
            StringBuilder caps = new StringBuilder();
            r.path("capacity")
                    .forEach(k -> caps.append(Page.esc(k.path("class").asText()))
                            .append(" ")
                            .append(f(k.path("max_rps")))
                            .append(" [")
                            .append(f(k.path("ci_low")))
                            .append("–")
                            .append(f(k.path("ci_high")))
                            .append("] "));
            rows.add(List.of(
                    r.path("rank").asText() + (r.path("cheapest").asBoolean() ? " (cheapest)" : ""),
                    Page.esc(r.path("option").asText()),
                    caps.toString(),
                    f(r.at("/peak_replicas/point")),
                    money(num(r.path("last_month_cost"))),
                    money(num(r.at("/horizon_cost/point"))) + " [" + money(num(r.at("/horizon_cost/low"))) + "–"
                            + money(num(r.at("/horizon_cost/high"))) + "]",
                    f(r.at("/dollars_per_mtok/at_capacity")),
                    f(r.at("/dollars_per_mtok/as_planned"))));
        }
        page.table(
                List.of(
                        "rank",
                        "option",
                        "capacity per replica (req/s)",
                        "peak replicas",
                        "last month",
                        "horizon cost",
                        "$/Mtok at capacity",
                        "$/Mtok planned"),
                rows);
        JsonNode mix = c.path("mix");
        if (mix.isObject()) {
            page.p(Page.esc(String.format(
                    Locale.ROOT,
                    "Cheapest mix over the horizon: %s vs %s for %s alone; saving %s.",
                    money(num(mix.path("cost"))),
                    money(num(mix.path("best_single_cost"))),
                    mix.path("best_single_option").asText(),
                    money(num(mix.path("saving"))))));
        }
    }

    /** Per month: the sum over classes of {point, low, high} of a Range field for one option. */
    private static double[][] sum(JsonNode plan, String option, int months, String field) {
        double[][] out = new double[3][months];
        for (JsonNode row : plan.path("months")) {
            if (!row.path("option").asText().equals(option)) continue;
            int m = row.path("month").asInt() - 1;
            out[0][m] += num(row.at("/" + field + "/point"));
            out[1][m] += num(row.at("/" + field + "/low"));
            out[2][m] += num(row.at("/" + field + "/high"));
        }
        return out;
    }
}
