package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.RunLength;
import dev.headroom.model.Slo;
import dev.headroom.model.StopReason;
import dev.headroom.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** Max-goodput search on analytic goodput curves, with and without measurement noise. */
class GoodputSearchTest {

    private static SearchSpec spec(double min, double max, int probes, boolean open) {
        return new SearchSpec(
                SearchSpec.Objective.MAX_GOODPUT,
                List.of(Slo.parse("ttft:p95<300ms")),
                min,
                max,
                0.05,
                probes,
                Workload.fixed(100, 10),
                RunLength.requests(100),
                new ArrivalProcess.Poisson(),
                1,
                open,
                Goodput.Unit.REQUESTS);
    }

    /** Rises with load, peaks, then collapses as requests miss the SLO: c · exp(−(c / peak)²) scaled. */
    private static DoubleUnaryOperator peakedAt(double peak) {
        return c -> 10 * (c / peak) * Math.exp(0.5 * (1 - (c / peak) * (c / peak)));
    }

    private static GoodputSearch.Observer fake(DoubleUnaryOperator goodput, double relNoise, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return (load, i) -> {
            double g = goodput.applyAsDouble(load);
            double se = Math.max(1e-3, relNoise * g);
            return new GoodputSearch.Observation(load, g + (relNoise > 0 ? se * r.nextGaussian() : 0), se, 100, 10);
        };
    }

    @Test
    void expectedImprovementMatchesHandComputedValues() {
        // mu = best: EI = sd · φ(0) = 0.398942 · sd.
        assertEquals(0.398942 * 2, GoodputSearch.expectedImprovement(5, 2, 5), 1e-5);
        // mu − best = 1, sd = 1: 1 · Φ(1) + φ(1) = 0.841345 + 0.241971.
        assertEquals(1.083316, GoodputSearch.expectedImprovement(6, 1, 5), 1e-5);
        // No uncertainty: the plain improvement, never negative.
        assertEquals(1.0, GoodputSearch.expectedImprovement(6, 0, 5), 1e-12);
        assertEquals(0.0, GoodputSearch.expectedImprovement(4, 0, 5), 1e-12);
    }

    @Test
    void initialProbesAreLogSpacedOverTheRange() {
        assertEquals(List.of(1.0, 10.0, 102.0, 1024.0), new GoodputSearch(spec(1, 1024, 20, false)).initialLoads());
        List<Double> open = new GoodputSearch(spec(0.5, 40, 20, true)).initialLoads();
        assertEquals(0.5, open.getFirst(), 1e-9);
        assertEquals(40, open.getLast(), 1e-9);
        assertEquals(open.get(1) / open.get(0), open.get(2) / open.get(1), 1e-9);
    }

    @Test
    void aStatedQueueingPointIsProbedWithItsToleranceEdgeFirst() {
        assertEquals(
                List.of(1.0, 16.0, 256.0, 268.0),
                new GoodputSearch(spec(1, 1024, 20, false)).hinting(256).initialLoads());
        assertEquals(
                List.of(1.0, 10.0, 102.0, 1024.0),
                new GoodputSearch(spec(1, 1024, 20, false)).hinting(4096).initialLoads(),
                "a hint past max is ignored");
        // Goodput rising with the users up to a cap of 256, then collapsing: found at the cap in the initial design.
        var r = new GoodputSearch(spec(1, 1024, 10, false))
                .hinting(256)
                .run(fake(c -> c <= 256 ? c / 8.0 : 0.5, 0.01, 3));
        assertEquals(256, r.load(), 256 * 0.02);
    }

    @Test
    void surrogateInterpolatesAndIsUnsureFarFromItsPoints() {
        List<GoodputSurrogate.Point> pts = new ArrayList<>();
        for (int i = 0; i <= 6; i++) pts.add(new GoodputSurrogate.Point(i, Math.sin(i / 2.0), 1e-4));
        GoodputSurrogate gp = GoodputSurrogate.fit(pts);
        assertEquals(Math.sin(1.25), gp.predict(2.5).mean(), 0.05);
        assertTrue(gp.predict(2.5).sd() < 0.2, "between points: " + gp.predict(2.5));
        assertTrue(gp.predict(12).sd() > 3 * gp.predict(2.5).sd(), "far outside: " + gp.predict(12));
    }

    @Test
    void aNoisyProbeCountsForLessThanAPreciseOne() {
        // Two measurements at the same load disagree; the precise one should pull the posterior to itself.
        List<GoodputSurrogate.Point> pts = List.of(
                new GoodputSurrogate.Point(0, 0, 1e-4),
                new GoodputSurrogate.Point(2, 10, 1e-4),
                new GoodputSurrogate.Point(1, 4, 1e-4),
                new GoodputSurrogate.Point(1, 8, 25));
        assertEquals(4, GoodputSurrogate.fit(pts).predict(1).mean(), 0.5);
    }

    @Test
    void findsThePeakOfASmoothCurveInFewProbes() {
        var r = new GoodputSearch(spec(1, 1024, 12, false)).run(fake(peakedAt(180), 0, 1));
        double truth = peakedAt(180).applyAsDouble(180);
        assertTrue(peakedAt(180).applyAsDouble(r.load()) >= 0.98 * truth, "argmax " + r.load());
        assertTrue(r.probes().size() <= 10, r.probes().size() + " probes");
        assertEquals(StopReason.CONVERGED, r.stopReason());
        assertEquals(truth, r.mean(), 0.05 * truth);
        assertTrue(r.posterior().loads().length > 10);
    }

    @Test
    void noisyMeasurementsStillReach98PercentOfTheMaxMostOfTheTime() {
        int good = 0;
        for (int seed = 0; seed < 20; seed++) {
            double peak = 20 + 40 * seed;
            var r = new GoodputSearch(spec(1, 1024, 10, false)).run(fake(peakedAt(peak), 0.03, seed));
            if (peakedAt(peak).applyAsDouble(r.load()) >= 0.98 * peakedAt(peak).applyAsDouble(peak)) good++;
        }
        assertTrue(good >= 17, good + "/20 within 98 %");
    }

    @Test
    void aCollapseAboveThePeakBoundsTheSearchAndIsBisected() {
        // Goodput rises with load until the server's batch is full at 64, then every extra user's requests queue,
        // miss the SLO, and goodput collapses: a cliff no smooth surrogate can fit.
        DoubleUnaryOperator cliff = c -> c <= 64 ? 0.5 * c : 0;
        assertEquals(
                102,
                GoodputSearch.cap(List.of(
                        new GoodputSearch.Observation(10, 5, 0.1, 1, 1),
                        new GoodputSearch.Observation(102, 0, 0.1, 1, 1),
                        new GoodputSearch.Observation(1024, 0, 0.1, 1, 1))),
                1e-9);
        var r = new GoodputSearch(spec(1, 1024, 14, false)).run(fake(cliff, 0, 1));
        assertTrue(
                r.load() >= 58 && r.load() <= 64,
                "argmax " + r.load() + " after "
                        + r.probes().stream()
                                .map(GoodputSearch.Observation::load)
                                .toList());
        // Every probe after the initial four lies below the collapse seen so far.
        for (int i = 4; i < r.probes().size(); i++) {
            double load = r.probes().get(i).load();
            assertTrue(load < GoodputSearch.cap(r.probes().subList(0, i)), "probe " + i + " at " + load);
        }
    }

    @Test
    void aStatedBatchCapBoundsTheAnswerAndTheProbesAfterTheInitialDesign() {
        // A batch cap of 128: throughput is flat past it and requests wait, so goodput only falls, slowly while the
        // waits are short. Noise then makes a load well past the cap look as good or better.
        DoubleUnaryOperator capped = c -> c <= 128 ? 0.5 * c : 64 * Math.exp(-(c - 128) / 400.0);
        for (int seed = 0; seed < 10; seed++) {
            var r = new GoodputSearch(spec(1, 1024, 10, false)).cappedAt(128).run(fake(capped, 0.03, seed));
            // At most the cap's tolerance edge, 134.
            assertTrue(r.load() <= 134, "seed " + seed + ": argmax " + r.load());
            assertTrue(r.load() >= 0.95 * 128, "seed " + seed + ": argmax " + r.load());
            for (int i = GoodputSearch.INITIAL_PROBES; i < r.probes().size(); i++) {
                assertTrue(r.probes().get(i).load() <= 134, "seed " + seed + ": probe " + i);
            }
        }
    }

    /** A server that runs at most 64 requests at once: goodput rises to the cap, then collapses as users wait. */
    private static GoodputSearch.Observer cappedAt64(double queueRoom, List<Double> loads) {
        return (load, i) -> {
            loads.add(load);
            double g = load <= 64 ? 0.5 * load : load <= 66 ? 32 : 0;
            return new GoodputSearch.Observation(load, g, 0.3, 100, 10, Math.min(load, 64), queueRoom);
        };
    }

    @Test
    void aFullBatchSeenInAProbeEndsTheDesignAndIsProbedNextAndAnswered() {
        List<Double> loads = new ArrayList<>();
        var gs = new GoodputSearch(spec(1, 1024, 10, false));
        var r = gs.run(cappedAt64(0, loads));
        // 102 users streamed 64 at a time: 1,024 would only wait longer, and the cap is probed instead.
        assertEquals(List.of(1.0, 10.0, 102.0, 64.0), loads.subList(0, 4), "the cap right after the design");
        assertTrue(gs.designDone());
        assertEquals(64, r.load(), 1e-9);
        assertEquals(64, r.batchCap(), 1e-9);
        assertEquals(GoodputSearch.CapSource.OBSERVED, r.batchCapSource());
        assertEquals(32, r.mean(), 1e-9, "the goodput measured at the cap");
        for (double load : loads.subList(3, loads.size())) assertTrue(load <= 67, "probed " + loads);
    }

    /**
     * A server that runs at most 64 requests at once, whose users spend a ninth of their cycle outside a slot: the
     * probe at the cap reads a fill of 72, goodput follows {@code pastCap} from 64 users to 74 and collapses after.
     */
    private static GoodputSearch.Observer fillingTo72(DoubleUnaryOperator pastCap, List<Double> loads) {
        return (load, i) -> {
            loads.add(load);
            double g = load <= 64 ? 0.5 * load : load <= 74 ? pastCap.applyAsDouble(load) : 0;
            double fill = load == 64 ? 72 : Double.NaN;
            return new GoodputSearch.Observation(load, g, 0.2, 100, 10, Math.min(load, 64), 0, fill, Double.NaN);
        };
    }

    @Test
    void usersWhoKeepAFullBatchBusyAreProbedAndAnsweredPastTheCap() {
        List<Double> loads = new ArrayList<>();
        // Goodput goes on rising past the cap up to the fill: users waiting take the slots the others leave idle.
        var r = new GoodputSearch(spec(1, 1024, 10, false)).run(fillingTo72(c -> 32 + 0.25 * (c - 64), loads));
        assertEquals(List.of(1.0, 10.0, 102.0, 64.0, 72.0), loads.subList(0, 5), "the cap, then its fill");
        assertEquals(72, r.load(), 1e-9);
        assertEquals(34, r.mean(), 1e-9, "the goodput measured there");
        for (double load : loads) assertTrue(load <= 72 || load == 102, "probed " + loads);
    }

    @Test
    void aPeakBetweenTheCapAndItsFillIsProbedInTheMiddle() {
        List<Double> loads = new ArrayList<>();
        // The first waiting users fill idle slots; by 72 their waits cost as much as they bring.
        var r = new GoodputSearch(spec(1, 1024, 10, false)).run(fillingTo72(c -> 36 - Math.abs(c - 68), loads));
        assertTrue(loads.contains(68.0), "probed " + loads);
        assertEquals(68, r.load(), 1e-9);
    }

    /**
     * A server that runs at most 64 requests at once, whose probe at the cap reads a fill of {@code fill} users and no
     * queue room: goodput levels off towards 32 at the cap, follows {@code pastCap} past it and collapses from
     * {@code collapse} users on.
     */
    private static GoodputSearch.Observer cappedAt64Filling(
            double fill, DoubleUnaryOperator pastCap, double collapse, List<Double> loads) {
        return (load, i) -> {
            loads.add(load);
            double g = load <= 64
                    ? 32 * (1 - (1 - load / 64) * (1 - load / 64))
                    : load < collapse ? pastCap.applyAsDouble(load) : 0;
            return new GoodputSearch.Observation(
                    load, g, 0.2, 100, 10, Math.min(load, 64), 0, load == 64 ? fill : Double.NaN, Double.NaN);
        };
    }

    @Test
    void aFillWithinTheCapsToleranceIsProbedInTheMiddleAndAnsweredWhenItMeasuresMore() {
        List<Double> loads = new ArrayList<>();
        // A fill of 67.4 lies within the cap's tolerance edge (67); two waiting users take finished requests' slots at
        // once and add 4 %, though the cap probe's queue room (none) would add no user.
        var r = new GoodputSearch(spec(1, 1024, 10, false))
                .run(cappedAt64Filling(67.4, c -> 32 + 0.7 * (c - 64) - 0.2 * (c - 64) * (c - 64), 68, loads));
        assertTrue(loads.contains(66.0), "probed " + loads);
        assertEquals(66, r.load(), 1e-9);
        assertEquals(32.6, r.mean(), 1e-9, "the goodput measured there");
        // The same middle measuring less than the cap: the cap stays the answer.
        List<Double> again = new ArrayList<>();
        var worse =
                new GoodputSearch(spec(1, 1024, 10, false)).run(cappedAt64Filling(67.4, c -> 32 - (c - 64), 68, again));
        assertTrue(again.contains(66.0), "probed " + again);
        assertEquals(64, worse.load(), 1e-9);
    }

    @Test
    void aPeakBetweenTheCapAndAFillThatCollapsedIsProbedInTheMiddle() {
        List<Double> loads = new ArrayList<>();
        // The fill, 70, is probed past the tolerance edge and has collapsed; 67 users still did better than 64.
        var r = new GoodputSearch(spec(1, 1024, 10, false))
                .run(cappedAt64Filling(70, c -> c == 67 ? 33.5 : 32, 69, loads));
        assertEquals(List.of(1.0, 10.0, 102.0, 64.0, 70.0), loads.subList(0, 5), "the cap, then its fill");
        assertTrue(loads.contains(67.0), "probed " + loads);
        assertEquals(67, r.load(), 1e-9);
    }

    @Test
    void aProbePastTheCapThatMeasuredMoreIsAnsweredThoughTheFitPeaksBelowTheCap() {
        List<Double> loads = new ArrayList<>();
        // Goodput levels off at 31.9 well below the cap, dips to 31.5 at the cap (the slot a user's next request
        // leaves idle) and is back at 31.9 three users past it, before the fill of 70 collapses: the fit's best lies
        // below the cap by more than the cap's standard error, but not by more than one from the probe past it.
        GoodputSearch.Observer server = (load, i) -> {
            loads.add(load);
            double g = load < 64 ? 31.9 * Math.min(1, load / 40) : load == 64 ? 31.5 : load <= 67 ? 31.9 : 0;
            return new GoodputSearch.Observation(
                    load, g, 0.1, 100, 10, Math.min(load, 64), 0, load == 64 ? 70 : Double.NaN, Double.NaN);
        };
        var r = new GoodputSearch(spec(1, 1024, 10, false)).run(server);
        assertTrue(loads.contains(67.0), "probed " + loads);
        assertEquals(67, r.load(), 1e-9, "probed " + loads);
    }

    @Test
    void roomInTheSloAddsUsersToWaitForASlot() {
        // Room for 8 users to wait: a quarter of it, 2, added to the cap.
        var r = new GoodputSearch(spec(1, 1024, 10, false)).run(cappedAt64(8, new ArrayList<>()));
        assertEquals(66, r.load(), 1e-9);
        // Room for one only: not worth a user.
        assertEquals(
                64,
                new GoodputSearch(spec(1, 1024, 10, false))
                        .run(cappedAt64(1, new ArrayList<>()))
                        .load());
    }

    @Test
    void sessionsThatThinkBetweenTurnsShowNoCap() {
        SearchSpec plain = spec(1, 1024, 10, false);
        SearchSpec sessions = new SearchSpec(
                plain.objective(),
                plain.slos(),
                plain.min(),
                plain.max(),
                plain.tolerance(),
                plain.maxProbes(),
                plain.workload(),
                plain.perProbe(),
                plain.arrivals(),
                plain.seed(),
                false,
                Goodput.Unit.REQUESTS,
                new dev.headroom.model.SessionSpec(
                        4,
                        new dev.headroom.model.LengthDistribution.Fixed(100),
                        new dev.headroom.model.LengthDistribution.Fixed(10),
                        dev.headroom.model.ThinkTime.NONE,
                        0,
                        1,
                        0,
                        0));
        // A third of the sessions stream at any time, the rest between turns: no cap, whatever the load.
        var r = new GoodputSearch(sessions)
                .run((load, i) -> new GoodputSearch.Observation(
                        load, peakedAt(180).applyAsDouble(load), 0.1, 100, 10, Math.max(1, load / 3), 0));
        assertTrue(Double.isNaN(r.batchCap()), "cap " + r.batchCap());
    }

    @Test
    void aCapIsNotReadFromAProbeItsUsersCouldAllRun() {
        // Every probe streams all its users: no cap, whatever the goodput does.
        var r = new GoodputSearch(spec(1, 1024, 10, false))
                .run((load, i) ->
                        new GoodputSearch.Observation(load, peakedAt(180).applyAsDouble(load), 0.1, 100, 10, load, 0));
        assertTrue(Double.isNaN(r.batchCap()));
        assertEquals(null, r.batchCapSource());
    }

    @Test
    void anSloNoRequestMeetsAtAnyLoadOfTheDesignStopsThereBelowTheRange() {
        var r = new GoodputSearch(spec(1, 1024, 20, false))
                .run((load, i) -> new GoodputSearch.Observation(load, 0, 0.01, 100, 10));
        assertEquals(4, r.probes().size(), "the design only");
        assertEquals(StopReason.BELOW_MIN, r.stopReason());
        // One load of the design with good requests: the search goes on.
        var some = new GoodputSearch(spec(1, 1024, 20, false))
                .run((load, i) -> new GoodputSearch.Observation(load, load == 10 ? 0.5 : 0, 0.01, 100, 10));
        assertTrue(some.probes().size() > 4, some.probes().size() + " probes");
        assertEquals(StopReason.CONVERGED, some.stopReason());
    }

    @Test
    void stopsAtTheProbeLimit() {
        var r = new GoodputSearch(spec(1, 1024, 5, false)).run(fake(peakedAt(300), 0.2, 3));
        assertEquals(5, r.probes().size());
        assertEquals(StopReason.MAX_PROBES, r.stopReason());
    }

    @Test
    void thePlateauHoldsTheLoadsWhosePosteriorMeanIsWithinOneSdOfTheBest() {
        var posterior = new GoodputSearch.Posterior(
                new double[] {1, 2, 4, 8, 16},
                new double[] {1, 4.6, 5, 4.7, 2},
                new double[] {0.5, 0.5, 0.5, 0.5, 0.5},
                new double[] {1, 1, 0.1});
        var best = new GoodputSearch.Observation(4, 5, 0.5, 100, 10);
        var r = new GoodputSearch.Result(
                4, 5, 0.5, best, 0, StopReason.CONVERGED, List.of(best), posterior, Double.NaN, null);
        assertArrayEquals(new double[] {2, 8}, r.plateau(), 1e-12);
        var bare = new GoodputSearch.Result(
                4, 5, 0.5, best, 0, StopReason.CONVERGED, List.of(best), null, Double.NaN, null);
        assertArrayEquals(new double[] {4, 4}, bare.plateau(), 1e-12);
    }

    /**
     * A server whose TTFT statistic crosses its threshold at 40 users, where goodput peaks; it runs up to 512 requests
     * at once.
     */
    private static GoodputSearch.Observer sloAt40(List<Double> loads) {
        return (load, i) -> {
            loads.add(load);
            double g = load <= 40 ? load : Math.max(0, 40 - 2 * (load - 40));
            return new GoodputSearch.Observation(
                    load, g, 0.3, 100, 10, Math.min(load, 512), Double.NaN, Double.NaN, load / 40 - 1);
        };
    }

    @Test
    void aFullBatchFarAboveWhereTheSloStatisticFailsIsNotProbed() {
        List<Double> loads = new ArrayList<>();
        // 1,024 users streamed 512 at a time, but 102 already failed the statistic: goodput peaks well below 512.
        new GoodputSearch(spec(1, 1024, 10, false)).run(sloAt40(loads));
        assertTrue(!loads.contains(512.0), "probed " + loads);
    }
}
