package dev.headroom.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Slo;
import dev.headroom.model.Workload;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.ConfigureReport;
import dev.headroom.model.plan.ParetoPoint;
import dev.headroom.model.plan.PricingTier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfiguratorTest {
    // Llama-3.1-8B in BF16 is 16.1 GB of weights, read once per decode step. On an L40S (864 GB/s) that step takes
    // at least 16.1 / 864 = 18.6 ms whatever the batch, on an H100 (3350 GB/s) 4.8 ms. And an H100 serves at most
    // max(3350 / 864, 989 / 362) = 3.9 times what an L40S does (bandwidth and compute ratios), so at 20 times the
    // price it cannot be the cheaper one wherever both meet the SLO.
    static final CatalogOption H100 =
            new CatalogOption("h100", 1, Map.of(PricingTier.ON_DEMAND, 10.0), "h100-sxm", null);
    static final CatalogOption L40S = new CatalogOption("l40s", 1, Map.of(PricingTier.ON_DEMAND, 0.5), "l40s", null);
    static final Workload CHAT = Workload.fixed(512, 128);

    static Configurator.Spec spec(List<String> slos, List<Integer> tp, List<Integer> seqs) {
        return spec("llama-3.1-8b", slos, List.of(H100, L40S), tp, seqs);
    }

    static Configurator.Spec spec(
            String model, List<String> slos, List<CatalogOption> gpus, List<Integer> tp, List<Integer> seqs) {
        return new Configurator.Spec(
                model,
                CHAT,
                slos.stream().map(Slo::parse).toList(),
                gpus,
                tp,
                seqs,
                List.of(8192),
                List.of("auto"),
                List.of("auto"),
                List.of(),
                PricingTier.ON_DEMAND,
                "chat",
                42,
                2,
                0.05,
                20);
    }

    @Test
    void cheaperGpuWinsAtALooseSlo() {
        ConfigureReport r =
                new Configurator(spec(List.of("ttft:p95<2s", "itl:p99<200ms"), List.of(1), List.of(64))).run(s -> {});
        assertEquals(2, r.results().size());
        assertTrue(
                r.results().stream().allMatch(ConfigureReport.Result::feasible),
                r.results().toString());
        assertEquals("l40s", r.ranked().getFirst().config().gpu());
        assertEquals(2, r.cheapestPerGpu().size());
        assertTrue(r.cheapestPerGpu().get("h100").dollarsPerOutputMtok()
                > r.cheapestPerGpu().get("l40s").dollarsPerOutputMtok());
    }

    @Test
    void fasterGpuWinsAtATightSlo() {
        ConfigureReport r = new Configurator(spec(List.of("itl:p99<12ms"), List.of(1), List.of(64))).run(s -> {});
        ConfigureReport.Result l40s = r.results().stream()
                .filter(x -> x.config().gpu().equals("l40s"))
                .findFirst()
                .orElseThrow();
        assertFalse(l40s.feasible());
        assertNotNull(l40s.why());
        assertEquals("h100", r.ranked().getFirst().config().gpu());
        assertTrue(r.ranked().getFirst().capacity().max() > 0);
        // Every L40S probe broke the SLO, so none of them is on a front.
        assertTrue(r.points().stream()
                .filter(p -> p.source().startsWith("l40s"))
                .noneMatch(p -> p.onFront() || Boolean.TRUE.equals(p.feasible())));
        assertTrue(r.points().stream().anyMatch(ParetoPoint::onFront));
    }

    @Test
    void configurationsThatCannotServeArePrunedWithTheReason() {
        var s = spec("llama-3.1-70b", List.of("ttft:p95<5s"), List.of(L40S), List.of(1, 3, 4), List.of(64));
        List<String> heard = new ArrayList<>();
        ConfigureReport r = new Configurator(s).run(heard::add);
        assertEquals(3, r.configurations());
        assertEquals(2, r.pruned().size());
        assertTrue(
                r.pruned().get(0).reason().contains("weights need"),
                r.pruned().get(0).reason());
        assertTrue(
                r.pruned().get(1).reason().contains("does not divide"),
                r.pruned().get(1).reason());
        assertEquals(1, r.results().size());
        assertEquals(4, r.results().getFirst().config().tensorParallel());
        assertTrue(heard.getFirst().contains("3 configuration(s), 2 pruned, 1 to search"), heard.getFirst());
    }

    @Test
    void anOptionWithoutHardwareIsBadInput() {
        var bare = new CatalogOption("mystery", 1, Map.of(PricingTier.ON_DEMAND, 1.0));
        var e = assertThrows(
                BadInputException.class,
                () -> spec("llama-3.1-8b", List.of("ttft:p95<5s"), List.of(bare), List.of(1), List.of(64)));
        assertTrue(e.getMessage().contains("mystery"), e.getMessage());
    }
}
