package dev.headroom.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.WorkloadClass;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Plans checked against numbers computed by hand from docs/planning.md's arithmetic (its worked example). */
class PlannerTest {
    /** 8 night hours at 20 % of peak, 4 at 50 %, 4 peak hours, 8 evening hours at 50 %. */
    static final double[] DIURNAL = new double[24];

    static {
        Arrays.fill(DIURNAL, 0, 8, 0.2);
        Arrays.fill(DIURNAL, 8, 12, 0.5);
        Arrays.fill(DIURNAL, 12, 16, 1.0);
        Arrays.fill(DIURNAL, 16, 24, 0.5);
    }

    static final double[] FLAT_WEEK = {1, 1, 1, 1, 1, 1, 1};
    static final CatalogOption H100 = new CatalogOption("h100", 1, Map.of(PricingTier.ON_DEMAND, 2.99));
    static final Capacity CHAT_H100 = new Capacity("h100", "chat", 2.0, 1.8, 2.2, false, Double.NaN, "test");

    static Forecast forecast() {
        return new Forecast(
                3,
                List.of(new WorkloadClass(
                        "chat",
                        512,
                        256,
                        "ttft:p95<300ms",
                        new Traffic.Parametric(10, DIURNAL, FLAT_WEEK, 0.10, 1.2))));
    }

    @Test
    void staticPlanMatchesTheHandComputedExample() {
        Plan p = new Planner(Policy.DEFAULT).plan(forecast(), List.of(H100), List.of(CHAT_H100));
        // Month peaks 10, 11, 12.1 rps; replicas ⌈rps ÷ (2 × 0.8)⌉ + 1 = 8, 8, 9.
        assertEquals(
                List.of(8.0, 8.0, 9.0),
                p.rows().stream().map(r -> r.replicas().point()).toList());
        // Low: capacity 2.2 → ⌈10/1.76⌉+1 = 7, ⌈11/1.76⌉+1 = 8, ⌈12.1/1.76⌉+1 = 8.
        assertEquals(
                List.of(7.0, 8.0, 8.0),
                p.rows().stream().map(r -> r.replicas().low()).toList());
        // High: capacity 1.8 and p90 × 1.2 → ⌈12/1.44⌉+1 = 10, ⌈13.2/1.44⌉+1 = 11, ⌈14.52/1.44⌉+1 = 12.
        assertEquals(
                List.of(10.0, 11.0, 12.0),
                p.rows().stream().map(r -> r.replicas().high()).toList());
        PlanRow m0 = p.rows().getFirst();
        assertEquals(8 * 2.99 * 730, m0.cost().point(), 1e-6); // 17,461.60
        assertEquals(7 * 2.99 * 730, m0.cost().low(), 1e-6);
        assertEquals(10 * 2.99 * 730, m0.cost().high(), 1e-6);
        assertEquals(8 * 730, m0.gpuHours(), 1e-9);
        // Requests in month 0: 10 rps × mean diurnal (11.6 / 24) × 3,600 × 730 = 12,702,000.
        assertEquals(12_702_000 * 512.0, m0.inputTokens(), 1);
        assertEquals(12_702_000 * 256.0, m0.outputTokens(), 1);
        assertEquals(17_461.6 / (12_702_000 * 768.0 / 1e6), m0.dollarsPerMtokAsPlanned(), 1e-9); // 1.7901
        assertEquals(17_461.6 / (12_702_000 * 256.0 / 1e6), m0.dollarsPerMtokOutputOnly(), 1e-9);
        assertEquals(2.99 / (2 * 3600 * 768 / 1e6), m0.dollarsPerMtokAtCapacity(), 1e-12); // 0.5407
        assertEquals(12_702_000 / (8 * 730 * 3600 * 2.0), m0.utilization(), 1e-9); // 0.3021
        assertTrue(Double.isNaN(m0.dollarsPerMtokInput()), "no prefill share measured: no input/output split");
        Plan.OptionTotal t = p.totals().getFirst();
        assertEquals((8 + 8 + 9) * 2.99 * 730, t.cost().point(), 1e-6);
        assertEquals(9, t.peakReplicas().point());
        assertEquals(12, t.peakReplicas().high());
    }

    @Test
    void hourlyScalingPaysForEachHoursNeed() {
        Policy hourly = new Policy(0.8, 1, true, 0, PricingTier.ON_DEMAND, 730);
        Plan p = new Planner(hourly).plan(forecast(), List.of(H100), List.of(CHAT_H100));
        // Hours at 2, 5 and 10 rps need 3, 5 and 8 replicas: 8×3 + 4×5 + 4×8 + 8×5 = 116 replica-hours a day.
        PlanRow m0 = p.rows().getFirst();
        assertEquals(116.0 / 24 * 730, m0.gpuHours(), 1e-6);
        assertEquals(116.0 / 24 * 730 * 2.99, m0.cost().point(), 1e-6);
        assertEquals(116.0 / 24, m0.meanReplicas(), 1e-9);
        assertEquals(8, m0.replicas().point());
    }

    @Test
    void inputAndOutputCostSplitByTheMeasuredPrefillShare() {
        Capacity measured = new Capacity("h100", "chat", 2.0, 1.8, 2.2, false, 0.25, "test");
        PlanRow m0 = new Planner(Policy.DEFAULT)
                .plan(forecast(), List.of(H100), List.of(measured))
                .rows()
                .getFirst();
        assertEquals(17_461.6 * 0.25 / (12_702_000 * 512.0 / 1e6), m0.dollarsPerMtokInput(), 1e-9);
        assertEquals(17_461.6 * 0.75 / (12_702_000 * 256.0 / 1e6), m0.dollarsPerMtokOutput(), 1e-9);
    }

    @Test
    void zeroTrafficNeedsNoReplicasUnlessAFloorIsSet() {
        assertEquals(0, new Planner(Policy.DEFAULT).replicas(0, 2));
        assertEquals(2, new Planner(new Policy(0.8, 1, false, 2, PricingTier.ON_DEMAND, 730)).replicas(0, 2));
        // Exactly at capacity × target: no extra replica from rounding.
        assertEquals(5 + 1, new Planner(Policy.DEFAULT).replicas(8, 2));
    }

    @Test
    void badInputIsNamed() {
        var missing = assertThrows(
                Planner.MissingCapacityException.class,
                () -> new Planner(Policy.DEFAULT)
                        .plan(
                                forecast(),
                                List.of(H100, new CatalogOption("l40s", 1, Map.of(PricingTier.ON_DEMAND, 1.0))),
                                List.of(CHAT_H100)));
        assertTrue(
                missing.getMessage().contains("class chat on option l40s")
                        && missing.getMessage().contains("capacity chat@l40s="),
                missing.getMessage());
        var interval = assertThrows(
                IllegalArgumentException.class, () -> new Capacity("h100", "chat", 2, 2.1, 3, false, Double.NaN, "x"));
        assertTrue(interval.getMessage().contains("contain max_rps"), interval.getMessage());
        var diurnal = assertThrows(
                IllegalArgumentException.class, () -> new Traffic.Parametric(10, new double[23], FLAT_WEEK, 0, 1));
        assertTrue(diurnal.getMessage().contains("24"), diurnal.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Traffic.Parametric(-1, DIURNAL, FLAT_WEEK, 0, 1));
        var tier = assertThrows(IllegalArgumentException.class, () -> H100.replicaHourPrice(PricingTier.SPOT));
        assertTrue(tier.getMessage().contains("spot") && tier.getMessage().contains("on_demand"), tier.getMessage());
    }

    @Test
    void littlesLawTurnsAMaxConcurrencyIntoARate() {
        assertEquals(16.0, Capacity.littlesLaw(64, 4.0), 1e-12);
    }
}
