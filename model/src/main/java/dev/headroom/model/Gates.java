package dev.headroom.model;

import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What fails a run for a pipeline (a CI gate), judged on its typed result after every file is written: a probe whose
 * SLO fails, a sweep where no point passes (or the named point fails), a search whose answer is below a floor, an
 * error rate above a ceiling, a plan over its monthly budget. Each failure is one line naming the value and the
 * gate; none means the gates pass. Inputs are named as the library names them ({@code {max-error-rate}}).
 *
 * @param failOnSlo    fail when the SLO is not met (probe), no point meets it (sweep), no load does (search)
 * @param maxErrorRate a ceiling on the error rate (0..1) of a probe and of each sweep point; NaN for none
 * @param at           sweep: the load (users or requests/s) whose point must meet the SLO; NaN for none
 * @param require      search: the least answer (in the search's load unit) that passes; NaN for none
 * @param budget       plan: the most dollars a month the cheapest option may cost in its dearest month; NaN for none
 * @param failOnDrift  search: fail when the server drifted while it was searched ({@link SearchDrift})
 */
public record Gates(
        boolean failOnSlo, double maxErrorRate, double at, double require, double budget, boolean failOnDrift) {
    /** No gate: every run passes. */
    public static final Gates NONE = new Gates(false, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /** The gates without {@code failOnDrift}. */
    public Gates(boolean failOnSlo, double maxErrorRate, double at, double require, double budget) {
        this(failOnSlo, maxErrorRate, at, require, budget, false);
    }

    public Gates {
        if (!Double.isNaN(maxErrorRate) && !(maxErrorRate >= 0 && maxErrorRate <= 1)) {
            throw new BadInputException(
                    "{max-error-rate} must be a share of requests from 0% to 100%, got " + percent(maxErrorRate));
        }
        if (!Double.isNaN(at) && !(at > 0 && Double.isFinite(at))) {
            throw new BadInputException("{fail-on-slo-at} must be a load the sweep runs (> 0), got " + at);
        }
        if (!Double.isNaN(require) && !(require > 0 && Double.isFinite(require))) {
            throw new BadInputException("{require} must be a positive load, got " + require);
        }
        if (!Double.isNaN(budget) && !(budget > 0 && Double.isFinite(budget))) {
            throw new BadInputException("{budget} must be a positive number of dollars a month, got " + budget);
        }
    }

    /**
     * A share of requests as a user writes it: {@code 1%}, {@code 0.5%}, or a fraction {@code 0.01}; {@code input}
     * names it in an error.
     */
    public static double share(String text, String input) {
        String t = text == null ? "" : text.strip();
        boolean percent = t.endsWith("%");
        String number = percent ? t.substring(0, t.length() - 1).strip() : t;
        double v;
        try {
            v = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new BadInputException(
                    "bad " + input + " '" + text + "': write a percentage such as 1% or a fraction " + "such as 0.01");
        }
        if (!percent && v > 1) {
            throw new BadInputException(
                    "bad " + input + " '" + text + "': a fraction is at most 1; for percent write " + text + "%");
        }
        double share = percent ? v / 100 : v;
        if (!(share >= 0 && share <= 1)) {
            throw new BadInputException("bad " + input + " '" + text + "': a share of requests is from 0% to 100%");
        }
        return share;
    }

    /** Dollars as a user writes them: {@code 50000}, {@code $50,000}, {@code 50k}; {@code input} names them. */
    public static double dollars(String text, String input) {
        String t = text == null
                ? ""
                : text.strip().replace("$", "").replace(",", "").replace("_", "");
        double scale = 1;
        if (t.endsWith("k") || t.endsWith("K")) scale = 1e3;
        if (t.endsWith("m") || t.endsWith("M")) scale = 1e6;
        if (scale > 1) t = t.substring(0, t.length() - 1);
        try {
            double v = Double.parseDouble(t) * scale;
            if (v > 0 && Double.isFinite(v)) return v;
        } catch (NumberFormatException e) {
            // named below
        }
        throw new BadInputException(
                "bad " + input + " '" + text + "': write dollars a month > 0, e.g. 50000, $50,000 " + "or 50k");
    }

    /** Whether any gate is set. */
    public boolean any() {
        return failOnSlo
                || !Double.isNaN(maxErrorRate)
                || !Double.isNaN(at)
                || !Double.isNaN(require)
                || !Double.isNaN(budget)
                || failOnDrift;
    }

    /** Refuses an SLO gate on a run without an SLO: it could never fail, so it would guard nothing. */
    public void requireSlo(List<Slo> slos) {
        if (!slos.isEmpty()) return;
        String gate = failOnSlo ? "{fail-on-slo}" : !Double.isNaN(at) ? "{fail-on-slo-at}" : "{require}";
        if (failOnSlo || !Double.isNaN(at) || !Double.isNaN(require)) {
            throw new BadInputException(
                    gate + " judges the run by its SLO, and none was given: add {slo} (e.g. " + "ttft:p95<500ms)");
        }
    }

    /** Refuses a sweep gate on a load the sweep does not run (before it runs). */
    public void requirePointIn(List<LoadModel> loads) {
        if (Double.isNaN(at) || loads.stream().anyMatch(l -> loadOf(l) == at)) return;
        throw new BadInputException("{fail-on-slo-at} " + trim(at) + " is no point of this sweep; its points are "
                + String.join(", ", loads.stream().map(l -> trim(loadOf(l))).toList()));
    }

    /** A probe's failed gates. */
    public List<String> probe(ProbeReport r) {
        List<String> failed = new ArrayList<>();
        if (failOnSlo && !r.summary().sloPass()) failed.add("the SLO is not met: " + unmet(r.summary()));
        errorRate(r, "", failed);
        return failed;
    }

    /** A sweep's failed gates, its points in the order they ran. */
    public List<String> sweep(List<ProbeReport> points) {
        List<String> failed = new ArrayList<>();
        if (failOnSlo && points.stream().noneMatch(p -> p.summary().sloPass())) {
            failed.add("no point of the sweep meets the SLO");
        }
        if (!Double.isNaN(at)) {
            ProbeReport named = points.stream()
                    .filter(p -> loadOf(p.run().load()) == at)
                    .findFirst()
                    .orElse(null);
            if (named == null) {
                failed.add("no point of the sweep ran at " + trim(at));
            } else if (!named.summary().sloPass()) {
                failed.add("the point " + named.run().load().label() + " does not meet the SLO: "
                        + unmet(named.summary()));
            }
        }
        for (ProbeReport p : points) errorRate(p, p.run().load().label() + ": ", failed);
        return failed;
    }

    /** A search's failed gates. */
    public List<String> search(SearchReport r) {
        List<String> failed = new ArrayList<>();
        boolean none = r.stopReason() == StopReason.BELOW_MIN || Double.isNaN(r.value());
        if (failOnSlo && none) failed.add("no load from " + trim(r.min()) + " meets the SLO");
        if (!Double.isNaN(require) && (none || r.value() < require)) {
            failed.add("the answer " + (none ? "(none)" : trim(r.value())) + " is below the " + trim(require)
                    + " required");
        }
        if (failOnDrift && r.drift() != null && r.drift().detected()) {
            failed.add("the server drifted while it was searched: " + r.drift().describe(Gates::trim));
        }
        return failed;
    }

    /** A plan's failed gates: the budget against the cheapest option's dearest month. */
    public List<String> plan(Plan p) {
        List<String> failed = new ArrayList<>();
        if (Double.isNaN(budget)) return failed;
        Map<String, double[]> byOption = new TreeMap<>();
        int months = p.forecast().horizonMonths();
        for (PlanRow row : p.rows()) {
            byOption.computeIfAbsent(row.option(), k -> new double[months])[row.month()] +=
                    row.cost().point();
        }
        String best = null;
        double bestWorst = Double.POSITIVE_INFINITY;
        int bestMonth = 0;
        for (Map.Entry<String, double[]> e : byOption.entrySet()) {
            double[] cost = e.getValue();
            int worst = 0;
            for (int m = 1; m < cost.length; m++) if (cost[m] > cost[worst]) worst = m;
            if (cost[worst] < bestWorst) {
                bestWorst = cost[worst];
                best = e.getKey();
                bestMonth = worst;
            }
        }
        if (best != null && bestWorst > budget) {
            failed.add(String.format(
                    Locale.ROOT,
                    "the cheapest option, %s, costs $%,.0f in month %d: over the budget of $%,.0f a month",
                    best,
                    bestWorst,
                    bestMonth + 1,
                    budget));
        }
        return failed;
    }

    private void errorRate(ProbeReport r, String where, List<String> failed) {
        double rate = r.summary().errorRate();
        if (!Double.isNaN(maxErrorRate) && rate > maxErrorRate) {
            failed.add(where + "error rate " + percent(rate) + " > the " + percent(maxErrorRate) + " allowed");
        }
    }

    private static String unmet(Summary s) {
        List<String> parts = new ArrayList<>();
        for (Summary.SloResult x : s.slo()) {
            if (x.pass()) continue;
            String observed = Double.isNaN(x.observed())
                    ? "nothing measured"
                    : x.slo().isRate() ? percent(x.observed()) : trim(x.observed()) + " ms";
            parts.add(x.slo().text() + " (observed " + observed + ")");
        }
        return parts.isEmpty() ? "nothing measured" : String.join(", ", parts);
    }

    /** A load's value in its own unit: users for a closed loop, requests/s for an open one. */
    static double loadOf(LoadModel load) {
        return switch (load) {
            case LoadModel.Closed c -> c.concurrency();
            case LoadModel.Open o -> o.ratePerSecond();
        };
    }

    private static String percent(double fraction) {
        return trim(fraction * 100) + "%";
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.4g", v).replaceAll("\\.?0+$", "").replaceAll("\\.?0+e", "e");
    }
}
