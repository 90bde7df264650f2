package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.Slo;
import dev.headroom.model.TokenSource;
import dev.headroom.model.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeShapeTest {
    private static final long MS = 1_000_000L;

    private static SearchSpec spec(String slo) {
        return new SearchSpec(
                SearchSpec.Objective.MAX_CONCURRENCY,
                List.of(Slo.parse(slo)),
                1,
                1024,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1);
    }

    private static List<RequestRecord> ttftsAround(double ms, int n) {
        List<RequestRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = Math.round((ms + (i % 10) * 0.01 * ms) * MS);
            out.add(RequestRecord.completed(i, 0, 0, new long[] {t, t + MS}, t + 2 * MS, 10, TokenSource.USAGE, 2, 0));
        }
        return out;
    }

    @Test
    void maxGoodputProbesAfterTheInitialDesignRunEightTimesAsLong() {
        SearchSpec base = spec("ttft:p95<300ms");
        SearchSpec goodput = new SearchSpec(
                SearchSpec.Objective.MAX_GOODPUT,
                base.slos(),
                1,
                1024,
                0.05,
                10,
                base.workload(),
                RunLength.requests(200),
                base.arrivals(),
                1,
                false,
                Goodput.Unit.REQUESTS);
        ProbeShape shape = new ProbeShape(goodput);
        int[] design = {1, 10, 102, 1024};
        for (int users : design) {
            assertEquals(Math.max(200, 3 * users), shape.forLoad(users).requests(), "initial design at " + users);
            shape.learnCycle(users, 1 + users / 100.0);
        }
        assertEquals(8 * 200, shape.forLoad(40).requests());
        assertEquals(8 * 3 * 300, shape.forLoad(300).requests());
        // A max-concurrency search's probes keep their length (and may run on while ambiguous).
        ProbeShape boundary = new ProbeShape(base);
        for (int users : design) boundary.learnCycle(users, 1 + users / 100.0);
        assertEquals(5 * 200, boundary.forLoad(40).requests());
    }

    @Test
    void clearVerdictsStopAfterEnoughRequestsAndBorderlineOnesDoNot() {
        ProbeShape shape = new ProbeShape(spec("ttft:p95<300ms"));
        // A p95's interval lies inside the sample from 72 requests on; below that its width is clipped.
        assertFalse(shape.stopRule(8).enough(ttftsAround(30, 70)), "too few requests for a p95");
        assertTrue(shape.stopRule(8).enough(ttftsAround(30, 80)), "a sure pass");
        assertTrue(shape.stopRule(8).enough(ttftsAround(3000, 80)), "a sure fail");
        assertFalse(shape.stopRule(8).enough(ttftsAround(275, 80)), "within the noise of the threshold");
        assertEquals(368, ProbeShape.samplesForVerdict(Slo.parse("ttft:p99<300ms")));
        assertEquals(30, ProbeShape.samplesForVerdict(Slo.parse("ttft:p50<300ms")), "never fewer than 30");
    }

    @Test
    void theVerdictIsLookedAtOnlyWhenTheJudgedRequestsHaveGrownByHalf() {
        var rule = new ProbeShape(spec("ttft:p95<300ms")).stopRule(8);
        assertFalse(rule.enough(ttftsAround(275, 80)), "a look: borderline");
        assertFalse(rule.enough(ttftsAround(3000, 110)), "a sure fail, but 110 is not yet 1.5 x 80: no look");
        assertTrue(rule.enough(ttftsAround(3000, 120)), "the next look");
    }

    @Test
    void aVerdictWaitsForOneRequestPerUserAndForTheSlowOnesSentFirst() {
        var rule = new ProbeShape(spec("ttft:p95<300ms")).stopRule(100);
        assertFalse(rule.enough(ttftsAround(30, 90)), "a sure pass, but fewer finished than the 100 users");
        assertTrue(rule.enough(ttftsAround(30, 100)));
        // 120 fast requests finished, but request 5 (sent early) is still running: only 0..4 count.
        List<RequestRecord> fastOnesFirst = new ArrayList<>(ttftsAround(30, 125));
        fastOnesFirst.remove(5);
        assertEquals(5, ProbeShape.completedPrefix(fastOnesFirst).size());
        assertFalse(rule.enough(fastOnesFirst));
    }

    @Test
    void openLoopProbesMeasureEightRequestLifetimesAfterOneOfWarmUp() {
        SearchSpec rate = new SearchSpec(
                SearchSpec.Objective.MAX_RATE,
                List.of(Slo.parse("ttft:p95<300ms")),
                1,
                100,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1);
        ProbeShape shape = new ProbeShape(rate);
        // Before the first probe nothing is known: the base length and two seconds of warm-up. (Boundary probes may run
        // five times their length while their verdict is ambiguous.)
        assertEquals(5 * 200, shape.forLoad(10).requests());
        assertEquals(20, shape.forLoad(10).warmupRequests());
        shape.restore(1.0); // a request lives 1 s at the lowest load
        RunLength len = shape.forLoad(40);
        assertEquals(80, len.warmupRequests(), "one lifetime of arrivals, but at least two seconds");
        assertEquals(5 * 320, len.requests(), "eight lifetimes of arrivals (more than 6 s of queue growth)");
        assertEquals(5 * 200, shape.forLoad(2).requests(), "never below the base length");
    }

    @Test
    void anOpenLoopProbePassesOnlyOnceItsWholeLengthIsJudgedButFailsAtOnce() {
        SearchSpec rate = new SearchSpec(
                SearchSpec.Objective.MAX_RATE,
                List.of(Slo.parse("ttft:p95<300ms")),
                1,
                100,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1);
        ProbeShape shape = new ProbeShape(rate);
        // At 5 % past capacity a queue's delay grows by 0.05 s a second: 300 ms ÷ 0.05 = 6 s of arrivals to show.
        assertEquals(6.0, shape.queueSeconds(), 1e-12);
        assertEquals(5 * 600, shape.forLoad(100).requests(), "6 s at 100 req/s, five times while ambiguous");
        var rule = shape.stopRule(100);
        assertFalse(
                rule.enough(ttftsAround(30, 400)), "a sure pass on the first 400 of 600: the queue may be building");
        assertTrue(shape.stopRule(100).enough(ttftsAround(30, 600)), "the whole length judged");
        assertTrue(shape.stopRule(100).enough(ttftsAround(3000, 80)), "a sure fail stops at once");
        SearchSpec itlOnly = new SearchSpec(
                SearchSpec.Objective.MAX_RATE,
                List.of(Slo.parse("itl:p95<50ms")),
                1,
                100,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1);
        assertEquals(0, new ProbeShape(itlOnly).queueSeconds(), "a gap between tokens does not include the queue");
    }

    @Test
    void aRateMeasuredAgainIsSoakedFourTimesAsLongAndFailsOnlyAfterHalfOfIt() {
        SearchSpec rate = new SearchSpec(
                SearchSpec.Objective.MAX_RATE,
                List.of(Slo.parse("ttft:p95<300ms")),
                1,
                100,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1);
        ProbeShape shape = new ProbeShape(rate);
        assertFalse(shape.isSoak(100));
        shape.remember(100);
        assertTrue(shape.isSoak(100) && !shape.isSoak(90), "only the rate measured before");
        assertEquals(5 * 4 * 600, shape.forLoad(100).requests(), "four probe lengths, five times while ambiguous");
        assertFalse(shape.stopRule(100).enough(ttftsAround(30, 600)), "a soak passes only on its whole length");
        assertTrue(shape.stopRule(100).enough(ttftsAround(30, 2400)));
        assertFalse(shape.stopRule(100).enough(ttftsAround(3000, 600)), "a burst filling a short window is no verdict");
        assertTrue(shape.stopRule(100).enough(ttftsAround(3000, 1200)), "a sure fail over half the soak is");
        shape.failed();
        assertTrue(shape.isSoak(90), "once a probe has failed, every max-rate probe is a soak");
        assertEquals(5 * 4 * 540, shape.forLoad(90).requests());
        SearchSpec users = spec("ttft:p95<300ms");
        ProbeShape closed = new ProbeShape(users);
        closed.remember(100);
        closed.failed();
        assertFalse(closed.isSoak(100) || closed.isSoak(90), "a closed-loop probe repeated is pooled, not soaked");
        ProbeShape goodput = new ProbeShape(new SearchSpec(
                SearchSpec.Objective.MAX_GOODPUT,
                List.of(Slo.parse("ttft:p95<300ms")),
                1,
                100,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1,
                true,
                Goodput.Unit.REQUESTS));
        goodput.remember(100);
        goodput.failed();
        assertFalse(goodput.isSoak(100), "an open-loop goodput probe repeated keeps its length");
        ProbeShape capped = new ProbeShape(new SearchSpec(
                SearchSpec.Objective.MAX_RATE,
                List.of(Slo.parse("ttft:p95<300ms")),
                1,
                100,
                0.05,
                20,
                Workload.fixed(100, 10),
                new RunLength(200, 20),
                new ArrivalProcess.Poisson(),
                1));
        capped.remember(100);
        assertEquals(80, capped.forLoad(100).maxSeconds(), 1e-9, "the --probe-duration cap grows with the soak");
        assertEquals(20, capped.forLoad(90).maxSeconds(), 1e-9);
    }

    @Test
    void closedLoopProbesWarmUpOneWaveAndMeasureAtLeastThree() {
        ProbeShape shape = new ProbeShape(spec("ttft:p95<300ms"));
        RunLength len = shape.forLoad(150);
        assertEquals(150, len.warmupRequests());
        assertEquals(5 * 450, len.requests(), "three waves, and up to five times that while ambiguous");
        assertEquals(0, len.rampSeconds(), "no ramp until the first probe taught one");
        SearchSpec goodput = new SearchSpec(
                SearchSpec.Objective.MAX_GOODPUT,
                List.of(Slo.parse("ttft:p95<300ms")),
                1,
                1024,
                0.05,
                20,
                Workload.fixed(100, 10),
                RunLength.requests(200),
                new ArrivalProcess.Poisson(),
                1);
        assertEquals(450, new ProbeShape(goodput).forLoad(150).requests(), "goodput probes run exactly their length");
        ProbeShape refining = new ProbeShape(goodput);
        refining.learnCycle(1, 1.0);
        refining.learnCycle(10, 1.0);
        assertEquals(450, refining.forLoad(150).requests(), "the design's probes");
        refining.designDone();
        assertEquals(
                ProbeShape.GOODPUT_LENGTH * 450,
                refining.forLoad(150).requests(),
                "after a design cut short by a full batch, as after four probes");
    }

    @Test
    void closedLoopUsersStartOverTheirCycleAndWarmUpOneCycleMore() {
        ProbeShape shape = new ProbeShape(spec("ttft:p95<300ms"));
        shape.learnCycle(10, 1.0);
        shape.learnCycle(100, 4.0);
        RunLength len = shape.forLoad(100);
        assertEquals(4.0, len.rampSeconds(), 1e-12, "users spread over the cycle measured at this load");
        assertEquals(8.0, len.warmupSeconds(), 1e-12, "everything sent before the ramp ends plus one cycle is warm-up");
        assertEquals(100, len.warmupRequests(), "and at least the first wave");
        assertTrue(len.isWarmup(150, 7.9) && !len.isWarmup(150, 8.0));
        assertEquals(0, shape.forLoad(1).rampSeconds(), "one user needs no ramp");
    }

    @Test
    void cycleIsInterpolatedInLogLogAndExtrapolatedWithinFlatAndProportional() {
        ProbeShape shape = new ProbeShape(spec("ttft:p95<300ms"));
        shape.learnCycle(10, 1.0);
        shape.learnCycle(100, 4.0);
        // log-log halfway between 10 and 100 is sqrt(1000) users, and sqrt(1 x 4) seconds.
        assertEquals(2.0, shape.cycleAt(Math.sqrt(1000)), 1e-9);
        // Slope log 4 / log 10 beyond the highest measured load: 1000 users -> 4 x 4 = 16 s.
        assertEquals(16.0, shape.cycleAt(1000), 1e-9);
        shape.learnCycle(200, 20.0); // steeper than proportional: kept at proportional
        assertEquals(40.0, shape.cycleAt(400), 1e-9);
        ProbeShape flat = new ProbeShape(spec("ttft:p95<300ms"));
        flat.learnCycle(10, 2.0);
        flat.learnCycle(20, 1.0); // falling: kept flat
        assertEquals(1.0, flat.cycleAt(80), 1e-9);
        assertEquals(2.0, flat.cycleAt(5), 1e-9, "below the lowest load: along the slope to the next, kept flat");
    }
}
