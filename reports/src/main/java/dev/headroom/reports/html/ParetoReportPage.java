package dev.headroom.reports.html;

import static dev.headroom.reports.html.Page.esc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.Slo;
import dev.headroom.model.plan.ConfigureReport;
import dev.headroom.model.plan.ParetoPoint;
import dev.headroom.reports.ConfigureJson;
import dev.headroom.reports.ParetoJson;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.chart.Chart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The pages of a Pareto picture ({@code pareto.json}) and of a configuration search ({@code configure.json}): tokens/s
 * per user against tokens/s per GPU and against $/Mtok out, the points that broke the SLO apart, the fronts drawn.
 */
final class ParetoReportPage {
    private static final List<String> RESULT_COLUMNS = List.of(
            "configuration",
            "model",
            "req/s per replica [interval]",
            "$/Mtok out [interval]",
            "tok/s per user",
            "tok/s per GPU");

    private ParetoReportPage() {}

    static Page pareto(Path file) {
        JsonNode root = tree(file);
        List<ParetoPoint> points = ParetoJson.read(file);
        Page page = new Page("Headroom Pareto front");
        List<String[]> facts = new ArrayList<>(Header.of(
                        ResultFiles.Kind.PARETO,
                        root.at("/tool/version").asText(),
                        root.path("created_at").asText())
                .rows());
        List<String> runs = new ArrayList<>();
        root.path("runs").forEach(n -> runs.add(n.asText()));
        facts.add(new String[] {"runs", esc(String.join(", ", runs))});
        facts.add(new String[] {
            "GPUs per replica", esc(root.path("gpus_per_replica").asText())
        });
        facts.add(new String[] {
            "price",
            esc(
                    root.path("price_per_gpu_hour").isNumber()
                            ? "$" + root.path("price_per_gpu_hour").asText() + " per GPU-hour"
                            : "none given (no $/Mtok out)")
        });
        page.facts(facts);
        charts(page, points);
        frontTable(page, points);
        return page;
    }

    static Page configure(Path file) {
        JsonNode root = tree(file);
        ConfigureReport r = ConfigureJson.read(file);
        Page page = new Page("Headroom configure — " + r.model());
        List<String[]> facts = new ArrayList<>(Header.of(
                        ResultFiles.Kind.CONFIGURE,
                        root.at("/tool/version").asText(),
                        root.path("created_at").asText())
                .rows());
        facts.add(new String[] {"workload", esc(r.workload())});
        facts.add(new String[] {"SLO", esc(r.slos().stream().map(Slo::text).collect(Collectors.joining(" and ")))});
        facts.add(new String[] {"pricing", esc(r.pricing().wireName())});
        facts.add(new String[] {
            "search",
            esc(String.format(
                    Locale.ROOT,
                    "max-rate on the virtual clock, tolerance %.0f %%, at most %d probes, seed %d",
                    r.tolerance() * 100,
                    r.maxProbes(),
                    r.seed()))
        });
        facts.add(new String[] {
            "configurations",
            esc(r.configurations() + " tried: " + r.pruned().size() + " pruned, "
                    + r.results().size() + " searched, " + r.ranked().size() + " meet the SLO at some load")
        });
        page.facts(facts);
        page.h2("Cheapest per GPU at the SLO");
        List<List<String>> rows = new ArrayList<>();
        for (ConfigureReport.Result x : r.cheapestPerGpu().values()) rows.add(resultRow(x));
        page.table(RESULT_COLUMNS, rows);
        page.p("<span class=\"note\">Intervals: the search's own, widened by the model's cross-validated error. "
                + "catalog.yaml and capacities.yaml beside this page hold these configurations for plan and "
                + "compare.</span>");
        charts(page, r.points());
        page.h2("Every configuration searched, cheapest first");
        List<List<String>> all = new ArrayList<>();
        for (ConfigureReport.Result x : r.ranked()) all.add(resultRow(x));
        for (ConfigureReport.Result x : r.results()) {
            if (!x.feasible()) {
                all.add(List.of(esc(x.config().name()), esc(x.modelSource()), esc("none: " + x.why()), "-", "-", "-"));
            }
        }
        page.table(RESULT_COLUMNS, all);
        if (!r.pruned().isEmpty()) {
            page.h2("Pruned");
            List<List<String>> pr = new ArrayList<>();
            for (ConfigureReport.Pruned p : r.pruned())
                pr.add(List.of(esc(p.config().name()), esc(p.reason())));
            page.table(List.of("configuration", "why it cannot serve"), pr);
        }
        return page;
    }

    private static List<String> resultRow(ConfigureReport.Result x) {
        return List.of(
                esc(x.config().name()),
                esc(x.modelSource()),
                esc(String.format(
                        Locale.ROOT,
                        "%.3g [%.3g, %.3g]",
                        x.capacity().max(),
                        x.capacity().ciLow(),
                        x.capacity().ciHigh())),
                esc(String.format(
                        Locale.ROOT,
                        "$%.4f [%.4f, %.4f]",
                        x.dollarsPerOutputMtok(),
                        x.dollarsPerOutputMtokLow(),
                        x.dollarsPerOutputMtokHigh())),
                esc(String.format(Locale.ROOT, "%.1f", x.tokensPerSecondPerUser())),
                esc(String.format(Locale.ROOT, "%.1f", x.tokensPerSecondPerGpu())));
    }

    /** Per GPU and, with prices, per $/Mtok out: the SLO's feasible points, the others, and the front as a line. */
    private static void charts(Page page, List<ParetoPoint> points) {
        List<Chart> charts = new ArrayList<>();
        List<String> captions = new ArrayList<>();
        Chart gpu = new Chart("Pareto front", "output tokens/s per user", "output tokens/s per GPU");
        add(gpu, points, ParetoPoint::tokensPerSecondPerGpu, ParetoPoint::onFront);
        charts.add(gpu);
        captions.add("Each load point: how fast one answer streams (1000 ÷ TPOT p50) against what one GPU serves. "
                + "The line joins the front: no point that met the SLO is better on both.");
        if (points.stream().anyMatch(p -> Double.isFinite(p.dollarsPerOutputMtok()))) {
            Chart cost =
                    new Chart("Cost front", "output tokens/s per user", "$ per million output tokens").logYIfWide();
            add(cost, points, ParetoPoint::dollarsPerOutputMtok, ParetoPoint::onCostFront);
            charts.add(cost);
            captions.add("The same points against what a million output tokens cost there; lower is better.");
        }
        page.h2("Pareto picture");
        page.charts(charts, captions);
    }

    private static void add(
            Chart c, List<ParetoPoint> points, ToDoubleFunction<ParetoPoint> y, Predicate<ParetoPoint> front) {
        List<ParetoPoint> ok = points.stream()
                .filter(ParetoPoint::admissible)
                .filter(p -> Double.isFinite(y.applyAsDouble(p)))
                .toList();
        List<ParetoPoint> bad = points.stream()
                .filter(p -> !p.admissible())
                .filter(p -> Double.isFinite(y.applyAsDouble(p)) && Double.isFinite(p.tokensPerSecondPerUser()))
                .toList();
        List<ParetoPoint> line = points.stream()
                .filter(front)
                .sorted(Comparator.comparingDouble(ParetoPoint::tokensPerSecondPerUser))
                .toList();
        if (!line.isEmpty()) c.line("front", x(line), y(line, y));
        if (!ok.isEmpty()) c.points("meets the SLO (or none given)", x(ok), y(ok, y), null);
        if (!bad.isEmpty()) c.points("breaks the SLO", x(bad), y(bad, y), null);
    }

    private static double[] x(List<ParetoPoint> p) {
        return p.stream().mapToDouble(ParetoPoint::tokensPerSecondPerUser).toArray();
    }

    private static double[] y(List<ParetoPoint> p, ToDoubleFunction<ParetoPoint> y) {
        return p.stream().mapToDouble(y).toArray();
    }

    private static void frontTable(Page page, List<ParetoPoint> points) {
        page.h2("Points on a front");
        List<List<String>> rows = new ArrayList<>();
        points.stream()
                .filter(p -> p.onFront() || p.onCostFront())
                .sorted(Comparator.comparingDouble(ParetoPoint::tokensPerSecondPerUser)
                        .reversed())
                .forEach(p -> rows.add(List.of(
                        esc(p.source()),
                        esc(p.load()),
                        esc(String.format(Locale.ROOT, "%.1f", p.tokensPerSecondPerUser())),
                        esc(String.format(Locale.ROOT, "%.1f", p.tokensPerSecondPerGpu())),
                        Double.isFinite(p.dollarsPerOutputMtok())
                                ? esc(String.format(Locale.ROOT, "$%.4f", p.dollarsPerOutputMtok()))
                                : "-",
                        p.onFront() && p.onCostFront() ? "both" : p.onFront() ? "per GPU" : "cost")));
        page.table(List.of("run", "load", "tok/s per user", "tok/s per GPU", "$/Mtok out", "front"), rows);
    }

    private static JsonNode tree(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
