package dev.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.Disaggregation;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class VirtualEngineTest {
    private static final HardwareProfile H100 = Profiles.hardware("h100-sxm");
    private static final ModelProfile LLAMA_8B = Profiles.model("llama-3.1-8b");

    private static EngineConfig quiet(HardwareProfile hw, ModelProfile model) {
        return EngineConfig.defaults(hw, model).withNoise(0, 0, 0);
    }

    private static EngineConfig withTerm(EngineConfig c, StepTerm t, double v) {
        return c.toBuilder().hardware(c.hardware().with(t, v)).build();
    }

    private static Measurement closed(EngineConfig config, int users, Workload w, int requests) {
        return new VirtualEngine(config)
                .measure(new MeasurementRequest(new LoadModel.Closed(users), w, RunLength.requests(requests), 7));
    }

    @Test
    void batchOneDecodeStepIsWeightBytesOverBandwidthPlusOverhead() {
        Measurement m = closed(quiet(H100, LLAMA_8B), 1, Workload.fixed(16, 64), 3);
        // Hand computation: 8.03e9 params x 2 bytes / (3350 GB/s x memory efficiency) + the step's, the sequence's
        // and 32 layers' fixed costs. The KV read of a ~80-token context adds ~0.004 ms.
        double expected = 8.03e9 * 2 / (3350e9 * H100.term(StepTerm.MEMORY_EFFICIENCY))
                + H100.term(StepTerm.STEP_OVERHEAD_MS) / 1e3
                + H100.term(StepTerm.SEQ_OVERHEAD_US) / 1e6
                + 32 * H100.term(StepTerm.LAYER_OVERHEAD_US) / 1e6;
        double median = Stats.percentile(Stats.itlSeconds(m), 50);
        assertEquals(expected, median, expected * 0.01, "median ITL " + median);
    }

    @Test
    void ttftGrowsWithPromptLength() {
        EngineConfig config = quiet(H100, LLAMA_8B);
        double previous = 0;
        for (int isl : new int[] {128, 1024, 4096, 16384}) {
            double ttft = Stats.percentile(Stats.ttftSeconds(closed(config, 1, Workload.fixed(isl, 8), 3)), 50);
            assertTrue(ttft > previous * 1.5, "TTFT at isl " + isl + " = " + ttft + " vs " + previous);
            previous = ttft;
        }
        // 16k tokens is compute-bound: ~2 x 8e9 x 16384 FLOPs at 989 TFLOP/s x 0.55, plus attention.
        assertTrue(previous > 0.45 && previous < 1.0, "TTFT at 16k = " + previous);
    }

    @Test
    void outputThroughputRisesThenFlattensWithConcurrency() {
        EngineConfig config = quiet(H100, LLAMA_8B);
        Workload w = Workload.fixed(512, 256);
        int[] users = {1, 4, 16, 64, 256, 512, 1024};
        double[] tput = new double[users.length];
        for (int i = 0; i < users.length; i++) {
            tput[i] = Stats.outputTokensPerSecond(closed(config, users[i], w, Math.max(64, users[i] * 3)));
        }
        String table = Arrays.toString(tput);
        assertTrue(tput[2] > 10 * tput[0], "16 users should give >10x one user's throughput: " + table);
        for (int i = 1; i < 5; i++) assertTrue(tput[i] > tput[i - 1], "rising below the knee: " + table);
        // Past max_num_seqs (256) extra users only queue: throughput is flat.
        assertEquals(tput[4], tput[6], tput[4] * 0.10, "flat past the knee: " + table);
        assertTrue(tput[5] / tput[4] < 1.1, table);
    }

    @Test
    void dataParallelReplicasShareTheLoadAndEachServesAsOneEngineDoes() {
        EngineConfig one = quiet(H100, LLAMA_8B);
        EngineConfig four = one.toBuilder().dataParallel(4).build();
        Workload w = Workload.fixed(512, 128);
        // 64 users on four replicas are 16 on each: the same latencies as 16 users on one, four times the tokens.
        Measurement alone = closed(one, 16, w, 160);
        Measurement fleet = closed(four, 64, w, 640);
        double itlAlone = Stats.percentile(Stats.itlSeconds(alone), 50);
        double itlFleet = Stats.percentile(Stats.itlSeconds(fleet), 50);
        assertEquals(itlAlone, itlFleet, itlAlone * 0.03, "median ITL alone " + itlAlone + " vs in the fleet");
        double ratio = Stats.outputTokensPerSecond(fleet) / Stats.outputTokensPerSecond(alone);
        assertEquals(4, ratio, 0.2, "four replicas' throughput over one's");
        // And 64 users on one engine are slower per token than 16 on each of four.
        double itlCrowded = Stats.percentile(Stats.itlSeconds(closed(one, 64, w, 640)), 50);
        assertTrue(itlCrowded > 1.2 * itlFleet, "64 users on one engine " + itlCrowded + " vs four " + itlFleet);
    }

    @Test
    void theFrontEndTakesRequestsInOneAtATimeSoABurstQueuesBeforeTheEngine() {
        EngineConfig bare = quiet(H100, LLAMA_8B);
        EngineConfig served = withTerm(bare, StepTerm.FRONTEND_REQUEST_MS, 10);
        Workload w = Workload.fixed(128, 4);
        // 200 users at once: 200 requests through one front end at 10 ms each take 2 s to get in.
        Measurement m = closed(served, 200, w, 200);
        double lastTtft = Stats.percentile(Stats.ttftSeconds(m), 100);
        assertTrue(lastTtft > 1.99 && lastTtft < 2.3, "the last of 200 at 10 ms each waited " + lastTtft + " s");
        double bareLast = Stats.percentile(Stats.ttftSeconds(closed(bare, 200, w, 200)), 100);
        assertTrue(bareLast < 1.0, "without the front end's queue: " + bareLast + " s");
        // Four replicas have a front end each, and the balancer counts what waits there: 50 each, 0.5 s.
        double fourLast = Stats.percentile(
                Stats.ttftSeconds(closed(served.toBuilder().dataParallel(4).build(), 200, w, 200)), 100);
        assertTrue(fourLast > 0.49 && fourLast < 0.8, "the last of 200 on four front ends waited " + fourLast + " s");
        // Past the burst it caps the rate: 100 requests/s however short they are.
        Measurement run = closed(served, 64, w, 1000);
        double rate = run.records().size() / (run.elapsedNanos() / 1e9);
        assertTrue(rate < 101 && rate > 90, "requests/s through a 10 ms front end: " + rate);
    }

    @Test
    void tokensWaitForTheFrontEndWhileTheEngineRunsOn() {
        EngineConfig bare = quiet(H100, LLAMA_8B);
        EngineConfig served = withTerm(bare, StepTerm.FRONTEND_TOKEN_US, 2000);
        Workload w = Workload.fixed(256, 128);
        // 64 streams at 2 ms a token: the client gets at most 500 tokens/s, whatever the engine makes.
        double bareTput = Stats.outputTokensPerSecond(closed(bare, 64, w, 256));
        double tput = Stats.outputTokensPerSecond(closed(served, 64, w, 256));
        assertTrue(bareTput > 2000, "the engine alone: " + bareTput);
        assertTrue(tput < 501 && tput > 450, "through a front end at 2 ms a token: " + tput);
        // One stream at a time is untouched but for the 2 ms of each token.
        double itl = Stats.percentile(Stats.itlSeconds(closed(served, 1, w, 3)), 50);
        double bareItl = Stats.percentile(Stats.itlSeconds(closed(bare, 1, w, 3)), 50);
        assertEquals(Math.max(bareItl, 0.002), itl, 0.0005, "one stream's ITL " + itl + " vs " + bareItl);
    }

    @Test
    void disaggregatedRequestsDecodeOnlyOnceTheirKvCacheHasCrossedTheLink() {
        // One prefill and one decode engine over a 1 GB/s link: Llama-3.1-8B's 4096-token prompt is 4096 x 128 KiB
        // = 537 MB of KV cache, 0.537 s on the wire between the first token and the second.
        EngineConfig pd = quiet(H100, LLAMA_8B).toBuilder()
                .disaggregation(new Disaggregation(1, 1, 1))
                .build();
        Measurement m = closed(pd, 1, Workload.fixed(4096, 32), 3);
        for (var r : m.records()) {
            if (r.warmup()) continue;
            assertEquals(32, r.completionTokens(), "every token arrives");
            double gap = (r.chunkNanos()[1] - r.chunkNanos()[0]) / 1e9;
            assertTrue(gap >= 0.537 && gap < 0.6, "first to second token " + gap + " s");
        }
        // Over HTTP the simulator runs one engine: refused in one line.
        var config = dev.headroom.sim.http.SimServer.Config.loopback(pd);
        assertThrows(dev.headroom.model.BadInputException.class, () -> dev.headroom.sim.http.SimServer.start(config));
    }

    @Test
    void decodeEnginesApartAreSparedThePromptsThatStallAMixedBatch() {
        // Long prompts beside running decodes stretch the mixed steps; decode engines of their own never see them.
        EngineConfig one = quiet(H100, LLAMA_8B);
        EngineConfig pd =
                one.toBuilder().disaggregation(new Disaggregation(1, 1, 50)).build();
        Workload w = Workload.fixed(4096, 128);
        // Each request's longest gap between tokens, the median of them: a prefill step, or a decode step.
        double mixed = Stats.percentile(Stats.maxGapSeconds(closed(one, 32, w, 96)), 50);
        double apart = Stats.percentile(Stats.maxGapSeconds(closed(pd, 32, w, 96)), 50);
        assertTrue(apart < 0.5 * mixed, "longest gap aggregated " + mixed + " s vs decode engines apart " + apart);
    }

    @Test
    void fullKvCacheCausesPreemptionsAndTailLatencyJumps() {
        // Llama-3.1-8B on a 24 GB L4 leaves ~4.5 GB of KV cache: ~34k tokens, so ~17 sequences of 2048 tokens.
        EngineConfig config = quiet(Profiles.hardware("l4"), LLAMA_8B);
        Workload w = Workload.fixed(1024, 1024);
        Measurement fits = closed(config, 8, w, 24);
        Measurement overflows = closed(config, 48, w, 96);
        assertEquals(0, Stats.preemptions(fits));
        assertTrue(Stats.preemptions(overflows) > 10, "preemptions " + Stats.preemptions(overflows));
        double calmTail = Stats.percentile(Stats.maxGapSeconds(fits), 99);
        double cliffTail = Stats.percentile(Stats.maxGapSeconds(overflows), 99);
        assertTrue(cliffTail > 5 * calmTail, "p99 of the longest token gap: " + calmTail + " -> " + cliffTail);
    }

    @Test
    void eachClosedLoopRecordNamesItsUserWhoseNextRequestLeavesWhenItsLastEnds() {
        Measurement m = closed(quiet(H100, LLAMA_8B), 6, Workload.fixed(128, 32), 60);
        java.util.Map<Integer, java.util.List<RequestRecord>> byUser = new java.util.TreeMap<>();
        for (RequestRecord r : m.records())
            byUser.computeIfAbsent(r.user(), u -> new java.util.ArrayList<>()).add(r);
        assertEquals(java.util.Set.of(0, 1, 2, 3, 4, 5), byUser.keySet(), "users 0..5, none unnamed");
        for (var e : byUser.entrySet()) {
            var own = e.getValue();
            own.sort(java.util.Comparator.comparingLong(RequestRecord::intendedNanos));
            assertTrue(own.size() >= 8, "user " + e.getKey() + " sent " + own.size());
            for (int k = 1; k < own.size(); k++) {
                assertEquals(own.get(k - 1).endNanos(), own.get(k).intendedNanos(), "user " + e.getKey() + " #" + k);
            }
        }
        var open = new LoadModel.Open(20, new ArrivalProcess.Constant());
        Measurement o = new VirtualEngine(quiet(H100, LLAMA_8B))
                .measure(new MeasurementRequest(open, Workload.fixed(128, 32), RunLength.requests(40), 7));
        assertTrue(o.records().stream().allMatch(r -> r.user() == -1), "an open loop's requests name no user");
    }

    @Test
    void anOpenLoopUnderAConcurrencyCapHoldsArrivalsAtTheClientUntilASlotIsFree() {
        EngineConfig config = quiet(H100, LLAMA_8B);
        Workload w = Workload.fixed(256, 64);
        // 200 requests/s against 4 slots: arrivals pile up at the client, not at the server.
        var capped = new LoadModel.Open(200, new ArrivalProcess.Constant(), 4);
        Measurement m =
                new VirtualEngine(config).measure(new MeasurementRequest(capped, w, RunLength.requests(200), 3));
        var done = m.records().stream().filter(RequestRecord::succeeded).toList();
        assertEquals(m.records().size(), done.size(), "every request served");
        // Never more than 4 between send and end at once.
        long[][] events = done.stream()
                .flatMap(r -> java.util.stream.Stream.of(new long[] {r.sentNanos(), 1}, new long[] {r.endNanos(), -1}))
                .sorted((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]))
                .toArray(long[][]::new);
        int open = 0, most = 0;
        for (long[] e : events) most = Math.max(most, open += (int) e[1]);
        assertEquals(4, most, "requests in flight at most");
        // The wait is kept apart from send lag, and counted in the latency from the intended time.
        RequestRecord last = done.getLast();
        assertTrue(last.slotWaitNanos() > 100_000_000L, "the last waited " + last.slotWaitNanos() / 1e6 + " ms");
        assertEquals(last.intendedNanos() + last.slotWaitNanos(), last.sentNanos());
        assertEquals(0, last.sendLagNanos());
        assertTrue(last.firstTokenNanos() - last.intendedNanos() > last.slotWaitNanos());
        // Without the cap the server takes them all at once: none waits at the client.
        var open200 = new LoadModel.Open(200, new ArrivalProcess.Constant());
        Measurement free =
                new VirtualEngine(config).measure(new MeasurementRequest(open200, w, RunLength.requests(200), 3));
        assertTrue(free.records().stream().allMatch(r -> r.slotWaitNanos() == 0));
    }

    @Test
    void sameSeedGivesTheSameTimingsAndAnotherSeedDoesNot() {
        EngineConfig config = EngineConfig.defaults(H100, LLAMA_8B); // default noise on
        Workload w = new Workload(
                dev.headroom.model.LengthDistribution.parse("normal:400,100"),
                dev.headroom.model.LengthDistribution.parse("uniform:50,150"),
                true);
        var load = new LoadModel.Open(20, new ArrivalProcess.Poisson());
        var a = new VirtualEngine(config).measure(new MeasurementRequest(load, w, RunLength.requests(300), 1));
        var b = new VirtualEngine(config).measure(new MeasurementRequest(load, w, RunLength.requests(300), 1));
        var c = new VirtualEngine(config).measure(new MeasurementRequest(load, w, RunLength.requests(300), 2));
        assertEquals(a.records().size(), b.records().size());
        for (int i = 0; i < a.records().size(); i++) {
            assertArrayEquals(
                    a.records().get(i).chunkNanos(), b.records().get(i).chunkNanos(), "request " + i);
        }
        assertFalse(Arrays.equals(
                a.records().get(10).chunkNanos(), c.records().get(10).chunkNanos()));
        assertTrue(a.simulated());
        assertEquals(1, a.seed());
    }

    @Test
    void openLoopArrivalsFollowTheRateAndLatencyIsMeasuredFromArrival() {
        var load = new LoadModel.Open(10, new ArrivalProcess.Constant());
        var m = new VirtualEngine(quiet(H100, LLAMA_8B))
                .measure(new MeasurementRequest(load, Workload.fixed(100, 20), RunLength.requests(50), 3));
        assertEquals(50, m.records().size());
        for (int i = 0; i < 50; i++) {
            RequestRecord r = m.records().get(i);
            assertEquals(i * 100_000_000L, r.intendedNanos(), "constant 10/s arrivals");
            assertTrue((r.firstTokenNanos() - r.intendedNanos()) > 0
                    && (r.endNanos() - r.intendedNanos()) >= (r.firstTokenNanos() - r.intendedNanos()));
            assertEquals(20, r.completionTokens());
        }
    }

    @Test
    void theVirtualClockHonoursTheOpenLoopRamp() {
        var load = new LoadModel.Open(10, new ArrivalProcess.Constant());
        var m = new VirtualEngine(quiet(H100, LLAMA_8B))
                .measure(new MeasurementRequest(
                        load, Workload.fixed(100, 20), new RunLength(40, Double.POSITIVE_INFINITY, 0, 4), 3));
        // 10/s reached linearly over 4 s: the k-th send at sqrt(0.8·k) s for the 20 in the ramp, then 0.1 s apart.
        for (int k = 0; k < 40; k++) {
            double expected = k < 20 ? Math.sqrt(0.8 * k) : k * 0.1 + 2;
            assertEquals(expected, m.records().get(k).intendedNanos() / 1e9, 1e-9, "send " + k);
        }
    }

    @Test
    void closedLoopUsersStartEvenlyOverTheRamp() {
        var m = new VirtualEngine(quiet(H100, LLAMA_8B))
                .measure(new MeasurementRequest(
                        new LoadModel.Closed(4), Workload.fixed(100, 20), new RunLength(8, 60, 0, 2), 3));
        var sends = m.records().stream().map(RequestRecord::intendedNanos).toList();
        for (long start : new long[] {0, 500_000_000L, 1_000_000_000L, 1_500_000_000L}) {
            assertTrue(sends.contains(start), "a user starts at " + start + " ns: " + sends);
        }
        // Before the second user starts only the first one sends, one request after another.
        assertTrue(sends.stream().filter(t -> t < 500_000_000L).count()
                < sends.stream().filter(t -> t < 1_000_000_000L).count());
    }

    @Test
    void overloadedOpenLoopFillsTheBoundedQueueAndRefusesWith429() {
        EngineConfig config = quiet(H100, LLAMA_8B).withMaxNumSeqs(4).withMaxWaiting(8);
        var load = new LoadModel.Open(500, new ArrivalProcess.Poisson());
        var m = new VirtualEngine(config)
                .measure(new MeasurementRequest(load, Workload.fixed(256, 256), RunLength.requests(200), 3));
        long refused = m.records().stream().filter(r -> !r.succeeded()).count();
        assertTrue(refused > 100, "refused " + refused);
        assertTrue(m.records().stream()
                .filter(r -> !r.succeeded())
                .allMatch(r -> r.failure().kind() == dev.headroom.model.ErrorKind.HTTP_429));
    }

    @Test
    void withoutIgnoreEosOutputLengthComesFromTheEosDistributionCappedByMaxTokens() {
        EngineConfig config = quiet(H100, LLAMA_8B).withEosLength(new dev.headroom.model.LengthDistribution.Fixed(30));
        var w = new Workload(
                new dev.headroom.model.LengthDistribution.Fixed(50),
                new dev.headroom.model.LengthDistribution.Fixed(100),
                false);
        var m = new VirtualEngine(config)
                .measure(new MeasurementRequest(new LoadModel.Closed(2), w, RunLength.requests(6), 1));
        assertTrue(m.records().stream().allMatch(r -> r.completionTokens() == 30 && r.requestedOutputTokens() == 100));
    }

    @Test
    void aStopRuleEndsTheMeasurementEarlyWithoutCuttingRequestsOff() {
        var req = new MeasurementRequest(
                new LoadModel.Closed(4),
                Workload.fixed(100, 20),
                RunLength.requests(1000),
                5,
                measured -> measured.size() >= 40);
        var m = new VirtualEngine(quiet(H100, LLAMA_8B)).measure(req);
        assertTrue(
                m.records().size() >= 40 && m.records().size() < 60,
                "records " + m.records().size());
        assertTrue(m.records().stream().allMatch(RequestRecord::succeeded), "in-flight requests finish");
    }

    @Test
    void thousandsOfRequestsRunOnTheVirtualClock() {
        var m = closed(EngineConfig.defaults(H100, LLAMA_8B), 128, Workload.fixed(512, 128), 5000);
        assertEquals(5000, m.records().size());
        assertTrue(m.records().stream().allMatch(RequestRecord::succeeded));
        // Virtual time, not wall time: ~5000 x 128 tokens at tens of thousands of tokens/s is many seconds.
        assertTrue(m.elapsedNanos() > 5e9, "virtual elapsed " + m.elapsedNanos());
    }

    @Test
    void aDriftingServerSlowsFromOneRunToTheNextAsItAges() {
        // 25 % slower steps after 60 s of the server's life, built up linearly; a run of a lone user lasts seconds.
        VirtualEngine server =
                new VirtualEngine(quiet(H100, LLAMA_8B).withDrift(new dev.headroom.sim.engine.Drift(0.25, 60)));
        Workload w = Workload.fixed(16, 512);
        MeasurementRequest lone = new MeasurementRequest(new LoadModel.Closed(1), w, RunLength.requests(5), 7);
        double first = Stats.percentile(Stats.itlSeconds(server.measure(lone)), 50);
        double later = first;
        for (int run = 0; run < 40; run++) later = Stats.percentile(Stats.itlSeconds(server.measure(lone)), 50);
        // The steps take 25 % longer; what a token costs outside them (the front end's streaming) does not drift.
        double ratio = later / first;
        assertTrue(ratio > 1.15 && ratio <= 1.25 + 1e-9, "ITL " + first + " then " + later);
        // A stationary one does not.
        VirtualEngine steady = new VirtualEngine(quiet(H100, LLAMA_8B));
        double a = Stats.percentile(Stats.itlSeconds(steady.measure(lone)), 50);
        for (int run = 0; run < 3; run++) steady.measure(lone);
        assertEquals(a, Stats.percentile(Stats.itlSeconds(steady.measure(lone)), 50), 1e-12);
    }
}
