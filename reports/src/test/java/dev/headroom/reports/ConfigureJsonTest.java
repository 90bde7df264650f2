package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.Slo;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.ConfigureReport;
import dev.headroom.model.plan.EngineKnobs;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Pareto;
import dev.headroom.model.plan.ParetoPoint;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.ServingConfig;
import dev.headroom.reports.plan.PlanInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigureJsonTest {
    static final CatalogOption H100 =
            new CatalogOption("h100", 1, Map.of(PricingTier.ON_DEMAND, 2.99, PricingTier.SPOT, 1.6), "h100-sxm", null);
    static final ServingConfig TP2 = h100(2), TP1 = h100(1), TP3 = h100(3);

    static ServingConfig h100(int tp) {
        return new ServingConfig("h100", "h100-sxm", tp, new EngineKnobs(128, 2048, "fp8", "bf16"));
    }

    static ConfigureReport report() {
        Capacity cap = new Capacity(
                TP2.name(),
                "chat",
                12.5,
                10,
                14,
                false,
                0.125,
                "stock h100-sxm x2",
                0.2,
                LoadUnit.REQUESTS,
                Double.NaN);
        var feasible = new ConfigureReport.Result(
                TP2, "stock h100-sxm x2", cap, null, 9, 256, 40.5, 1600, 0.2596, 0.2318, 0.3245);
        var infeasible = new ConfigureReport.Result(
                TP1,
                "stock h100-sxm x1",
                null,
                "the model meets itl:p99<10ms at no load from 0.01 requests/s (stop: below_min)",
                3,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN);
        List<ParetoPoint> points = Pareto.mark(List.of(
                new ParetoPoint(TP2.name(), "1 req/s", 50, 128, 3.2, true, false, false),
                new ParetoPoint(TP2.name(), "12 req/s", 40.5, 1536, 0.27, true, false, false),
                new ParetoPoint(TP2.name(), "16 req/s", 30, 1900, 0.21, false, false, false),
                new ParetoPoint(TP1.name(), "0.01 req/s", 20, 10, 80, false, false, false)));
        return new ConfigureReport(
                "llama-3.1-8b",
                "isl fixed:512, osl fixed:256, ignore_eos",
                "chat",
                List.of(Slo.parse("ttft:p95<1s"), Slo.parse("itl:p99<50ms")),
                PricingTier.ON_DEMAND,
                42,
                0.05,
                20,
                3,
                List.of(new ConfigureReport.Pruned(TP3, "TP 3 does not divide llama-3.1-8b's 32 attention heads")),
                List.of(infeasible, feasible),
                points);
    }

    @Test
    void configureJsonIsSealedAndReadsBackAsWritten(@TempDir Path tmp) throws IOException {
        String json = ConfigureJson.write(report(), "test", "2026-12-04T10:00:00Z");
        GoldenFiles.assertMatches("configure.json", json);
        Path file = Files.writeString(tmp.resolve("configure.json"), json);
        assertEquals(report(), ConfigureJson.read(file));
    }

    @Test
    void paretoJsonIsSealedAndReadsBackAsWritten(@TempDir Path tmp) throws IOException {
        List<ParetoPoint> points = report().points();
        String json = ParetoJson.write(List.of("runs/a", "runs/b"), 2, 2.99, points, "test", "2026-12-04T10:00:00Z");
        GoldenFiles.assertMatches("pareto.json", json);
        assertEquals(points, ParetoJson.read(Files.writeString(tmp.resolve("pareto.json"), json)));
        assertEquals(
                "source,load,tokens_per_s_per_user,tokens_per_s_per_gpu,dollars_per_output_mtok,feasible,on_front,"
                        + "on_cost_front",
                ParetoJson.csv(points).lines().findFirst().orElseThrow());
    }

    @Test
    void theCatalogAndCapacitiesItWritesAreWhatPlanReads(@TempDir Path tmp) throws IOException {
        Path catalog = Files.writeString(tmp.resolve("catalog.yaml"), ConfigureJson.catalog(report(), List.of(H100)));
        Path caps = Files.writeString(tmp.resolve("capacities.yaml"), ConfigureJson.capacities(report()));
        List<CatalogOption> options = PlanInputs.catalog(catalog, Map.of("h100-sxm", 2.99));
        assertEquals(1, options.size());
        CatalogOption o = options.getFirst();
        assertEquals(TP2.name(), o.name());
        assertEquals(2, o.gpusPerReplica());
        assertEquals(TP2.knobs(), o.engine());
        assertEquals(Map.of(PricingTier.ON_DEMAND, 2.99, PricingTier.SPOT, 1.6), o.pricePerGpuHour());
        List<Capacity> read = PlanInputs.capacities(caps);
        assertEquals(1, read.size());
        assertEquals(12.5, read.getFirst().max());
        assertEquals(10, read.getFirst().ciLow());
        assertEquals(14, read.getFirst().ciHigh());
        assertEquals("chat", read.getFirst().workloadClass());
    }

    @Test
    void theTableCountsWhatWasTriedAndSaysWhyEachWasPruned() {
        String t = ConfigureJson.table(report());
        assertTrue(t.contains("3 configurations tried, 1 pruned, 2 searched"), t);
        assertTrue(t.contains(TP2.name()), t);
        assertTrue(t.contains("$0.260 [0.232, 0.325]"), t);
        assertTrue(t.contains("does not divide"), t);
    }
}
