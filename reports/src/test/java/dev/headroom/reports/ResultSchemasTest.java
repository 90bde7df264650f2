package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BoundaryType;
import dev.headroom.model.LoadModel;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunDiff;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchDrift;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.model.StopReason;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.Range;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.WorkloadClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** sweep.json, search.json, plan.json, compare.json and diff.json sealed by golden files, as summary.json is. */
class ResultSchemasTest {

    private static RunDiff diff() {
        return new RunDiff(
                "probe",
                "runs/a",
                "runs/b",
                List.of("workload: isl fixed:512 vs isl fixed:256"),
                2000,
                42,
                0.01,
                List.of(
                        new RunDiff.Row(
                                "concurrency=16",
                                "tpot_ms",
                                "p50",
                                "ms",
                                RunDiff.Better.LOWER,
                                9.19,
                                11.1,
                                true,
                                0.205,
                                0.204,
                                0.207,
                                RunDiff.Verdict.WORSE),
                        new RunDiff.Row(
                                "concurrency=16",
                                "error_rate",
                                "value",
                                "fraction",
                                RunDiff.Better.LOWER,
                                0,
                                0,
                                false,
                                0,
                                0,
                                0,
                                RunDiff.Verdict.SAME),
                        new RunDiff.Row(
                                "concurrency=16",
                                "ttft_ms",
                                "p99",
                                "ms",
                                RunDiff.Better.LOWER,
                                71,
                                70,
                                true,
                                -0.014,
                                Double.NaN,
                                Double.NaN,
                                RunDiff.Verdict.SAME)));
    }

    @Test
    void diffJsonIsSealedAndReadsBackAsWritten(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        String json = DiffJson.write(diff(), "test", "2026-12-04T10:00:00Z");
        GoldenFiles.assertMatches("diff.json", json);
        Path file = Files.writeString(tmp.resolve("diff.json"), json);
        assertEquals(diff(), DiffJson.read(file));
        assertEquals(
                "point,metric,stat,unit,a,b,change_kind,change,change_low,change_high,verdict",
                DiffJson.csv(diff()).lines().findFirst().orElseThrow());
    }

    @Test
    void sweepJsonIsSealed() throws IOException {
        ProbeReport a = Fixtures.report();
        ProbeReport b = new ProbeReport(
                new RunInfo(
                        "test",
                        "2026-11-29T10:00:00Z",
                        a.run().url(),
                        a.run().model(),
                        "chat",
                        a.run().simulator(),
                        new LoadModel.Closed(8),
                        0,
                        0,
                        a.run().workload(),
                        a.run().inputLength(),
                        42),
                a.summary(),
                a.client());
        GoldenFiles.assertMatches(
                "sweep.json", SweepJson.write(List.of(a, b), List.of("01-rate=4", "02-concurrency=8")));
    }

    static SearchReport search(boolean goodput) {
        Map<String, SearchReport.SloMargin> m1 = new LinkedHashMap<>(), m2 = new LinkedHashMap<>();
        m1.put("ttft:p95<300ms", new SearchReport.SloMargin(-0.5, 0.05, 200));
        m2.put("ttft:p95<300ms", new SearchReport.SloMargin(0.25, 0.08, 120));
        List<SearchReport.Probe> probes = List.of(
                new SearchReport.Probe(
                        1,
                        1,
                        m1,
                        true,
                        new SearchReport.Estimate(0.5, 0.04),
                        203,
                        12.5,
                        "01-concurrency=1",
                        0.75,
                        new SearchReport.Estimate(7.25, 0.0625),
                        null),
                new SearchReport.Probe(
                        2,
                        64,
                        m2,
                        false,
                        new SearchReport.Estimate(20.25, 1.5),
                        320,
                        30.25,
                        "02-concurrency=64",
                        2.5,
                        new SearchReport.Estimate(9.5, 0.125),
                        new SearchReport.Batch(48, 3, 52.5)));
        Map<String, List<SearchReport.CurvePoint>> curves = new LinkedHashMap<>();
        curves.put(
                "ttft:p95<300ms", List.of(new SearchReport.CurvePoint(1, -0.5), new SearchReport.CurvePoint(64, 0.25)));
        RunInfo run = new RunInfo(
                "test",
                "2026-11-29T10:00:00Z",
                "virtual://simulator",
                "m",
                "chat",
                "llama-3.1-8b on h100-sxm x1",
                new LoadModel.Closed(1),
                0,
                0,
                "isl fixed:512, osl fixed:256, ignore_eos",
                "simulator tokenizer",
                42);
        SearchReport.GoodputResult g = goodput
                ? new SearchReport.GoodputResult(
                        "requests",
                        20.5,
                        1.25,
                        64,
                        20.25,
                        0.01,
                        List.of(
                                new SearchReport.PosteriorPoint(1, 0.5, 0.1),
                                new SearchReport.PosteriorPoint(64, 20.5, 1.25)),
                        new SearchReport.Kernel(1, 0.75, 1e-4),
                        48,
                        "observed")
                : null;
        return new SearchReport(
                run,
                goodput ? "max-goodput" : "max-concurrency",
                List.of(Slo.parse("ttft:p95<300ms")),
                true,
                1,
                1024,
                0.05,
                goodput ? 64 : 40,
                goodput ? 32 : 40,
                goodput ? 64 : 41,
                goodput ? null : "ttft:p95<300ms",
                goodput ? BoundaryType.PEAK : BoundaryType.SMOOTH,
                goodput ? StopReason.CONVERGED : StopReason.ADJACENT,
                probes,
                curves,
                g,
                2.5,
                goodput
                        ? null
                        : new SearchDrift(
                                List.of(new SearchDrift.Check(
                                        3, SearchDrift.Trigger.END, 1, 1, "ttft:p95<300ms", 0.125, 4.5, true)),
                                40,
                                41));
    }

    @Test
    void searchJsonIsSealed() throws IOException {
        GoldenFiles.assertMatches("search.json", SearchJson.write(search(false)));
        GoldenFiles.assertMatches("search-goodput.json", SearchJson.write(search(true)));
    }

    @Test
    void searchJsonReadsBackWhatAResumeNeeds() {
        SearchReport back = SearchJson.read(writeTemp(SearchJson.write(search(true))));
        SearchReport.Probe p = back.probes().get(1);
        assertEquals(64, p.load());
        assertEquals(0.25, p.margins().get("ttft:p95<300ms").value());
        assertEquals(120, p.margins().get("ttft:p95<300ms").samples());
        assertEquals(20.25, p.goodput().value());
        assertEquals(new SearchReport.Batch(48, 3, 52.5), p.batch(), "a resumed search reads the batch it saw again");
        assertTrue(Double.isNaN(back.probes().getFirst().batch().runningStreams()));
        assertEquals(48, back.goodput().batchCap());
        assertEquals("observed", back.goodput().batchCapSource());
        assertEquals(2.5, back.rampSeconds());
        assertEquals("max-goodput", back.objective());
    }

    static Plan plan() {
        double[] diurnal = new double[24];
        Arrays.fill(diurnal, 0.5);
        diurnal[12] = 1;
        Forecast f = new Forecast(
                1,
                List.of(new WorkloadClass(
                        "chat",
                        512,
                        256,
                        "ttft:p95<300ms",
                        new Traffic.Parametric(10, diurnal, new double[] {1, 1, 1, 1, 1, 1, 1}, 0, 1.2))));
        CatalogOption h100 = new CatalogOption("h100", 1, Map.of(PricingTier.ON_DEMAND, 2.99), "h100-sxm", null);
        Capacity cap = new Capacity("h100", "chat", 2, 1.8, 2.2, false, 0.25, "capacities.yaml");
        PlanRow row = new PlanRow(
                0,
                "chat",
                "h100",
                new Range(8, 7, 10),
                8,
                5840,
                new Range(17461.6, 15279.4, 21827),
                6.5e9,
                3.25e9,
                0.5407,
                1.79,
                5.37,
                0.67,
                4.03,
                0.3);
        Plan.OptionTotal total = new Plan.OptionTotal(
                "h100", new Range(8, 7, 10), 5840, new Range(17461.6, 15279.4, 21827), 6.5e9, 3.25e9, 1.79, 5.37);
        Capacity modelled =
                new Capacity("h100", "rag", 0.5, 0.38, 0.62, false, 0.6, "stock h100-sxm x1 llama-3.1-8b", 0.24);
        return new Plan(
                Policy.DEFAULT, f, List.of(h100), List.of(cap, modelled), List.of(row), List.of(total), List.of());
    }

    @Test
    void planAndCompareJsonAreSealed() throws IOException {
        GoldenFiles.assertMatches("plan.json", PlanJson.write(plan(), "test", "2026-11-29T10:00:00Z"));
        GoldenFiles.assertMatches("compare.json", PlanJson.write(comparison(), "test", "2026-11-29T10:00:00Z"));
    }

    static Comparison comparison() {
        return new Comparison(
                plan(),
                List.of(new Comparison.OptionRow(
                        "h100",
                        plan().capacities(),
                        new Range(8, 7, 10),
                        17461.6,
                        new Range(17461.6, 15279.4, 21827),
                        0.5407,
                        1.79,
                        true)),
                null);
    }

    private static java.nio.file.Path writeTemp(String text) {
        try {
            java.nio.file.Path f = java.nio.file.Files.createTempFile("search", ".json");
            java.nio.file.Files.writeString(f, text);
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
