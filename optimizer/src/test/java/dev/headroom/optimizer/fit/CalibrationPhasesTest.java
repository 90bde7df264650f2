package dev.headroom.optimizer.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.Summary;
import dev.headroom.model.TokenSource;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * The calibration's phases against a toy server with a few slots: probes that fit its context, a saturating phase
 * that reads the slots without losing requests, and lossy probes left out and replaced.
 */
class CalibrationPhasesTest {
    private static final double TIMEOUT_MS = 60_000;

    /**
     * Closed-loop users on {@code slots} slots, first come first served: a request's prompt takes {@code prefillUs}
     * per token once a slot is free, then a token every {@code gapMs}; one that waits longer than {@code timeoutMs}
     * for its first token fails as a first-token timeout.
     */
    private record SlotServer(int slots, double prefillUs, double gapMs, double timeoutMs, int context) {
        Summary run(MeasurementRequest r) {
            int users = ((LoadModel.Closed) r.load()).concurrency();
            int isl = (int) r.workload().inputTokens().mean();
            int osl = (int) r.workload().outputTokens().mean();
            PriorityQueue<Long> free = new PriorityQueue<>();
            for (int i = 0; i < slots; i++) free.add(0L);
            PriorityQueue<long[]> arrivals = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
            long ramp = Math.round(r.length().rampSeconds() * 1e9);
            for (int u = 0; u < users; u++) arrivals.add(new long[] {ramp * u / users, u});
            List<RequestRecord> out = new ArrayList<>();
            int total = r.length().requests() + r.length().warmupRequests();
            for (int i = 0; i < total; i++) {
                long[] a = arrivals.poll();
                if (isl + osl > context) {
                    out.add(RequestRecord.failed(
                            i, a[0], a[0], a[0] + 1_000_000, isl, osl, 400, ErrorKind.HTTP_4XX, "ctx"));
                    arrivals.add(new long[] {a[0] + 1_000_000, a[1]});
                    continue;
                }
                long start = Math.max(a[0], free.poll());
                long first = start + Math.round(isl * prefillUs * 1e3);
                if ((first - a[0]) / 1e6 > timeoutMs) {
                    long end = a[0] + Math.round(timeoutMs * 1e6);
                    out.add(RequestRecord.failed(
                            i, a[0], a[0], end, isl, osl, 0, ErrorKind.TIMEOUT_FIRST_TOKEN, "timeout"));
                    free.add(start); // the server never started it
                    arrivals.add(new long[] {end, a[1]});
                    continue;
                }
                long[] tokens = new long[osl];
                for (int k = 0; k < osl; k++) tokens[k] = first + Math.round(k * gapMs * 1e6);
                long end = tokens[osl - 1];
                out.add(RequestRecord.completed(i, a[0], a[0], tokens, end, isl, TokenSource.SERVER, osl, 0));
                free.add(end);
                arrivals.add(new long[] {end, a[1]});
            }
            return Metrics.summarize(out, false, List.of());
        }
    }

    private static CalibrationPhases drive(SlotServer server, CalibrationPlan.Limits limits, List<String> ran) {
        CalibrationPhases phases = new CalibrationPhases(limits, 7, 1, TIMEOUT_MS);
        for (CalibrationPlan.Probe p = phases.next(); p != null; p = phases.next()) {
            ran.add(p.name());
            phases.measured(p, server.run(p.request()));
        }
        return phases;
    }

    @Test
    void everyProbeFitsAShortContextAndWhatCannotBePinnedIsNamed() {
        CalibrationPlan.Design d = CalibrationPlan.design(new CalibrationPlan.Limits(1024, 4, 0), 1, 1);
        for (CalibrationPlan.Probe p : d.probes()) {
            assertTrue(p.isl() + p.osl() <= 1024, p.name() + " " + p.isl() + "+" + p.osl());
            assertTrue(p.users() <= 4, p.name());
        }
        assertTrue(d.probes().stream().anyMatch(p -> p.name().equals(d.unloadedProbe())));
        assertTrue(d.probes().stream().filter(p -> p.name().startsWith("isl-")).count() >= 2);
        assertFalse(d.substitutions().isEmpty(), "the shapes changed are listed");
        assertTrue(
                d.weak().isEmpty() || d.weak().stream().allMatch(w -> w.contains(":")),
                d.weak().toString());
        CalibrationPlan.Design tiny = CalibrationPlan.design(new CalibrationPlan.Limits(512, 0, 0), 1, 1);
        assertTrue(
                tiny.weak().stream().anyMatch(w -> w.contains("chunked")),
                tiny.weak().toString());
    }

    @Test
    void theStandardDesignIsUnchangedOnALongContext() {
        CalibrationPlan.Design d = CalibrationPlan.design(new CalibrationPlan.Limits(131072, 0, 0), 1, 1);
        assertEquals(
                List.of(
                        "isl-128",
                        "isl-512",
                        "isl-2048",
                        "isl-8192",
                        "batch-4",
                        "batch-16",
                        "batch-64",
                        "long-16",
                        "mix"),
                d.probes().stream().map(CalibrationPlan.Probe::name).toList());
        assertTrue(d.substitutions().isEmpty() && d.weak().isEmpty());
    }

    @Test
    void aFewUnstatedSlotsAreReadWithoutATimeoutAndBatchProbesBeyondThemSkipped() {
        // A slow CPU-like server: 3 slots, 40 ms a token. 512 users would wait minutes for a first token.
        SlotServer server = new SlotServer(3, 200, 40, TIMEOUT_MS, 1 << 20);
        List<String> ran = new ArrayList<>();
        CalibrationPhases phases = drive(server, new CalibrationPlan.Limits(8192, 0, 0), ran);
        assertFalse(ran.contains("batch-64"), ran.toString());
        Saturation.Step r = phases.saturation().reading();
        assertTrue(phases.saturation().capBinds());
        assertEquals(3, Math.round(r.served()), r.toString());
        assertTrue(r.probe().users() <= 16, r.toString());
        assertTrue(
                phases.notes().stream().anyMatch(n -> n.contains("batch-64 skipped")),
                phases.notes().toString());
        for (Saturation.Step s : phases.saturation().steps()) assertEquals(0, s.loss(), s.toString());
    }

    @Test
    void statedSlotsAreReadInOneStepAtTwiceAsManyUsers() {
        SlotServer server = new SlotServer(6, 100, 10, TIMEOUT_MS, 1 << 20);
        List<String> ran = new ArrayList<>();
        CalibrationPhases phases = drive(server, new CalibrationPlan.Limits(8192, 6, 0), ran);
        assertEquals(
                List.of("saturate-12"),
                ran.stream().filter(n -> n.startsWith("saturate")).toList());
        assertEquals(6, Math.round(phases.saturation().reading().served()));
        assertTrue(ran.contains("batch-6") && !ran.contains("batch-16"), ran.toString());
    }

    @Test
    void theLadderStopsWhereServedAtOnceStopsGrowing() {
        SlotServer server = new SlotServer(200, 20, 8, TIMEOUT_MS, 1 << 20);
        List<String> ran = new ArrayList<>();
        CalibrationPhases phases = drive(server, new CalibrationPlan.Limits(131072, 0, 0), ran);
        List<String> steps = ran.stream().filter(n -> n.startsWith("saturate")).toList();
        assertEquals(List.of("saturate-128", "saturate-256", "saturate-512"), steps);
        // Fixed lengths keep closed-loop users in waves, which biases the reading (CapMatch corrects it on the twin).
        assertEquals(200, phases.saturation().reading().served(), 200 * 0.2);
        assertTrue(phases.saturation().capBinds());
    }

    @Test
    void aStepThatLosesRequestsIsNeverFittedAndASmallerOneReplacesIt() {
        // Waits beyond 2 s time out: the first saturating step (128 users on 4 slots) loses most of its requests.
        SlotServer server = new SlotServer(4, 10, 5, 2_000, 1 << 20);
        CalibrationPlan.Limits limits = new CalibrationPlan.Limits(131072, 0, 0);
        CalibrationPhases phases = new CalibrationPhases(limits, 7, 1, 2_000);
        Saturation sat = new Saturation(512, 256, 128, limits, 10, 2_000, 7, 1);
        CalibrationPlan.Probe p = sat.next();
        sat.measured(p, server.run(p.request()));
        assertFalse(sat.steps().getFirst().kept(), sat.steps().toString());
        CalibrationPlan.Probe smaller = sat.next();
        assertEquals(64, smaller.users());
        assertTrue(
                sat.notes().stream().anyMatch(n -> n.contains("not fitted")),
                sat.notes().toString());
        assertTrue(phases.observations().isEmpty());
    }

    @Test
    void noStepAdmitsMoreUsersThanTheServerStatesItAdmits() {
        SlotServer server = new SlotServer(300, 20, 8, TIMEOUT_MS, 1 << 20);
        List<String> ran = new ArrayList<>();
        drive(server, new CalibrationPlan.Limits(131072, 0, 128), ran);
        // 90 % of those admitted: at the limit itself a closed-loop retry storms the admission.
        assertEquals(
                List.of("saturate-115"),
                ran.stream().filter(n -> n.startsWith("saturate")).toList());
    }

    @Test
    void onASlowCpuServerNoProbeIsSizedToWaitOutTheFirstTokenTimeout() {
        // 4 unstated slots, 20 ms a prompt token, 100 ms an output token: a 2,048-token prompt takes 41 s to prefill,
        // 16 users of 512 / 256 would queue for minutes.
        SlotServer server = new SlotServer(4, 20_000, 100, TIMEOUT_MS, 1 << 20);
        CalibrationPhases phases = new CalibrationPhases(new CalibrationPlan.Limits(8192, 0, 0), 7, 1, TIMEOUT_MS);
        List<String> ran = new ArrayList<>();
        long lost = 0;
        for (CalibrationPlan.Probe p = phases.next(); p != null; p = phases.next()) {
            ran.add(p.name() + " " + p.users() + "x" + p.isl());
            Summary s = server.run(p.request());
            lost += s.counts().failed() + s.counts().incomplete();
            phases.measured(p, s);
        }
        assertEquals(0, lost, ran + "\n" + phases.notes());
        assertTrue(ran.stream().noneMatch(r -> r.startsWith("isl-2048") || r.startsWith("isl-8192")), ran.toString());
        assertTrue(
                phases.notes().stream().anyMatch(n -> n.startsWith("isl-2048 skipped")),
                phases.notes().toString());
        assertEquals(4, Math.round(phases.saturation().reading().forCap()), ran + "\n" + phases.notes());
    }

    @Test
    void limitsComeFromWhatTheServerStates() {
        ServerFacts facts = new ServerFacts(
                ServerFacts.ServerKind.TGI,
                null,
                null,
                List.of(
                        new ServerFacts.Fact(ServerFacts.Key.MAX_CONCURRENT, 128, "x"),
                        new ServerFacts.Fact(ServerFacts.Key.CONTEXT_PER_REQUEST, 8192, "x"),
                        new ServerFacts.Fact(ServerFacts.Key.MAX_INPUT_TOKENS, 4000, "x")));
        CalibrationPlan.Limits l = CalibrationPlan.Limits.of(facts, 131072);
        assertEquals(4001, l.context());
        assertEquals(0, l.slots());
        assertEquals(128, l.admitted());
        assertEquals(
                2048, CalibrationPlan.Limits.of(ServerFacts.unknown(), 2048).context());
    }
}
