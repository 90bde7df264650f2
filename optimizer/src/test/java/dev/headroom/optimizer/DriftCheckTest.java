package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.SearchDrift;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriftCheckTest {
    private static final List<Slo> SLOS = List.of(Slo.parse("ttft:p95<300ms"), Slo.parse("itl:p99<50ms"));

    private static SearchReport.Probe probe(int index, double load, double ttft, double ttftSe, double itl) {
        Map<String, SearchReport.SloMargin> m = new LinkedHashMap<>();
        m.put("ttft:p95<300ms", new SearchReport.SloMargin(ttft, ttftSe, 100));
        m.put("itl:p99<50ms", new SearchReport.SloMargin(itl, 0.01, 1000));
        return new SearchReport.Probe(
                index, load, m, ttft < 0 && itl < 0, new SearchReport.Estimate(1, 0.1), 100, 10, "d", 1);
    }

    /** A probe at load 1 with ten requests: its number, margins, verdict and TPOT. */
    private static SearchReport.Probe probe(
            int index, Map<String, SearchReport.SloMargin> margins, boolean passed, SearchReport.Estimate tpot) {
        return new SearchReport.Probe(
                index, 1, margins, passed, new SearchReport.Estimate(1, 0.1), 10, 20, "d", 2, tpot, null);
    }

    @Test
    void aStatisticFifteenPercentHigherBeyondItsNoiseIsDrift() {
        // TTFT p95 from 150 ms (margin -0.5) to 172.5 ms (-0.425): +15 %, 7.5 / √2 ≈ 5.3 standard errors.
        SearchDrift.Check c = DriftCheck.compare(
                SLOS, probe(1, 1, -0.5, 0.01, -0.8), probe(9, 1, -0.425, 0.01, -0.8), SearchDrift.Trigger.END, 0.05);
        assertTrue(c.drifted(), c.toString());
        assertEquals("ttft:p95<300ms", c.statistic());
        assertEquals(0.15, c.change(), 1e-9);
        assertEquals(9, c.probe());
    }

    @Test
    void aChangeWithinTheNoiseOrTheToleranceIsNot() {
        // The same +15 % with a standard error of 0.05 on each side: about 1 standard error.
        assertFalse(DriftCheck.compare(
                        SLOS,
                        probe(1, 1, -0.5, 0.05, -0.8),
                        probe(9, 1, -0.425, 0.05, -0.8),
                        SearchDrift.Trigger.END,
                        0.05)
                .drifted());
        // A sure change of 2 %, under the search's 5 % tolerance: no threat to the answer.
        assertFalse(DriftCheck.compare(
                        SLOS,
                        probe(1, 1, -0.5, 0.001, -0.8),
                        probe(9, 1, -0.49, 0.001, -0.8),
                        SearchDrift.Trigger.END,
                        0.05)
                .drifted());
    }

    @Test
    void aPercentileTooFewRequestsResolveIsNotCompared() {
        // Ten lone requests: their p95 is the slowest of them. It moved -10 % at 3 standard errors, the TPOT did not.
        Map<String, SearchReport.SloMargin> m1 = new LinkedHashMap<>(), m2 = new LinkedHashMap<>();
        m1.put("ttft:p95<300ms", new SearchReport.SloMargin(-0.8473, 0.005, 10));
        m2.put("ttft:p95<300ms", new SearchReport.SloMargin(-0.8626, 0.00036, 10));
        SearchReport.Probe first = probe(1, m1, true, new SearchReport.Estimate(7.25, 0.003));
        SearchReport.Probe again = probe(10, m2, true, new SearchReport.Estimate(7.25, 0.004));
        List<Slo> ttft = List.of(Slo.parse("ttft:p95<300ms"));
        SearchDrift.Check c = DriftCheck.compare(ttft, first, again, SearchDrift.Trigger.END, 0.05);
        assertFalse(c.drifted(), c.toString());
        assertEquals(DriftCheck.TPOT, c.statistic());
        // With 100 requests each the same move is compared, and is drift.
        m1.put("ttft:p95<300ms", new SearchReport.SloMargin(-0.8473, 0.005, 100));
        m2.put("ttft:p95<300ms", new SearchReport.SloMargin(-0.8626, 0.00036, 100));
        assertTrue(DriftCheck.compare(ttft, first, again, SearchDrift.Trigger.END, 0.05)
                .drifted());
        // A rate has no percentile to resolve: compared whatever the count.
        Map<String, SearchReport.SloMargin> r1 = Map.of("error_rate<1%", new SearchReport.SloMargin(-1, 0.01, 10));
        Map<String, SearchReport.SloMargin> r2 = Map.of("error_rate<1%", new SearchReport.SloMargin(9, 0.5, 10));
        SearchReport.Probe ok = probe(1, r1, true, new SearchReport.Estimate(7, 0.003));
        SearchReport.Probe failing = probe(10, r2, false, new SearchReport.Estimate(7, 0.003));
        SearchDrift.Check rate =
                DriftCheck.compare(List.of(Slo.parse("error_rate<1%")), ok, failing, SearchDrift.Trigger.END, 0.05);
        assertTrue(rate.drifted(), rate.toString());
        assertEquals("error_rate<1%", rate.statistic());
    }

    @Test
    void aSlowerServerShowsInItsMeanTpotWhereItsLatencySloDidNotMove() {
        // A lone request's TTFT is mostly fixed cost; its TPOT is the decode step, the server's speed.
        SearchReport.Probe first = withTpot(probe(1, 1, -0.9, 0.01, -0.5), 7.0, 0.02);
        SearchReport.Probe again = withTpot(probe(11, 1, -0.9, 0.01, -0.5), 8.26, 0.02);
        SearchDrift.Check c = DriftCheck.compare(SLOS, first, again, SearchDrift.Trigger.END, 0.05);
        assertTrue(c.drifted(), c.toString());
        assertEquals(DriftCheck.TPOT, c.statistic());
        assertEquals(0.18, c.change(), 1e-9);
        assertEquals(1, c.referenceProbe());
        assertEquals(1, c.referenceLoad());
        // Its standard error counts: the same change at ±0.7 ms is noise.
        assertFalse(DriftCheck.compare(
                        SLOS, withTpot(first, 7.0, 0.7), withTpot(again, 8.26, 0.7), SearchDrift.Trigger.END, 0.05)
                .drifted());
    }

    private static SearchReport.Probe withTpot(SearchReport.Probe p, double mean, double se) {
        return new SearchReport.Probe(
                p.index(),
                p.load(),
                p.margins(),
                p.pass(),
                p.goodput(),
                p.requests(),
                p.seconds(),
                p.dir(),
                p.e2eMeanSeconds(),
                new SearchReport.Estimate(mean, se),
                p.batch());
    }

    @Test
    void aHigherLoadSurelyPassingWhereALowerOneSurelyFailedIsAContradiction() {
        SearchReport.Probe failedLow = probe(2, 100, 0.5, 0.05, -0.5);
        SearchReport.Probe passedHigh = probe(3, 150, -0.4, 0.05, -0.5);
        assertTrue(DriftCheck.contradicts(SLOS, List.of(failedLow), passedHigh));
        // A margin that dips with load far from the threshold is no contradiction: both pass.
        assertFalse(DriftCheck.contradicts(
                SLOS, List.of(probe(2, 8, -0.77, 0.002, -0.5)), probe(3, 64, -0.79, 0.002, -0.5)));
    }
}
