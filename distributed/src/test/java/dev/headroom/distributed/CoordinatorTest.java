package dev.headroom.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metric;
import dev.headroom.model.MetricsRecorder;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.Summary;
import dev.headroom.model.TokenSource;
import dev.headroom.model.WorkerRun;
import dev.headroom.model.Workload;
import dev.headroom.probe.Api;
import dev.headroom.probe.Probe;
import dev.headroom.probe.Target;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import dev.headroom.sim.profile.Profiles;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * The coordinator against workers in this process (real {@link Worker}s on the embedded simulator), scripted ones
 * (exact records, a death, a stall) and worker processes (one killed mid-run).
 */
class CoordinatorTest {
    private static final String TOKEN = "0123456789abcdef0123";

    private static EngineConfig engine() {
        return EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0);
    }

    private static Target target(SimServer s) {
        return new Target(
                s.baseUri(),
                Api.CHAT,
                null,
                null,
                Map.of(),
                false,
                Duration.ofSeconds(5),
                Duration.ofSeconds(30),
                Duration.ofSeconds(60));
    }

    private static MeasurementRequest closed(int users, int requests) {
        return new MeasurementRequest(
                new LoadModel.Closed(users), Workload.fixed(64, 32), new RunLength(requests, 120, 8, 0.2), 5);
    }

    private static Summary summary(MeasurementRequest p, List<RequestRecord> records) {
        MetricsRecorder m = new MetricsRecorder(p.openLoop(), List.of());
        records.forEach(m::accept);
        return m.summary();
    }

    private record Run(Measurement measurement, List<RequestRecord> records) {}

    private static Run run(Coordinator c, MeasurementRequest p) {
        List<RequestRecord> got = Collections.synchronizedList(new ArrayList<>());
        Measurement m = c.measure(p, (Consumer<RequestRecord>) got::add);
        return new Run(m, new ArrayList<>(got));
    }

    /** How many of {@code records} worker {@code w} of two sent. */
    private static long ownRecords(List<RequestRecord> records, int w) {
        synchronized (records) {
            return records.stream().filter(r -> r.index() % 2 == w).count();
        }
    }

    @Test
    void fourWorkersMeasureWhatOneProcessMeasures() {
        MeasurementRequest p = closed(8, 160);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()))) {
            Target t = target(sim);
            List<RequestRecord> alone = Collections.synchronizedList(new ArrayList<>());
            new Probe(t, "one").measure(p, alone::add);
            List<Worker> workers = new ArrayList<>();
            for (int k = 0; k < 4; k++) workers.add(Worker.start(new InetSocketAddress("127.0.0.1", 0), TOKEN));
            try (Coordinator c = new Coordinator(
                    workers.stream().map(Worker::url).toList(), TOKEN, TargetSpec.of(t, "NO_KEY", null), 0, "four")) {
                Run four = run(c, p);
                Summary one = summary(p, alone);
                Summary shared = summary(p, four.records());
                assertEquals(
                        one.counts().completed(), shared.counts().completed(), "the same count of measured requests");
                assertEquals(160, shared.counts().completed());
                assertEquals(alone.size(), four.records().size(), "warm-up included");
                Set<Long> ids = new HashSet<>();
                for (RequestRecord r : four.records()) assertTrue(ids.add(r.index()), "index " + r.index() + " twice");
                for (Metric m : List.of(Metric.TPOT_MS, Metric.E2E_MS)) {
                    double a = one.distribution(m).p50();
                    double b = shared.distribution(m).p50();
                    assertEquals(a, b, 0.15 * a, m + " p50: one process " + a + ", four workers " + b);
                }
                List<WorkerRun> each = four.measurement().notes().workers();
                assertEquals(4, each.size());
                for (WorkerRun w : each) {
                    assertFalse(w.degraded(), w.problem());
                    assertEquals(0, w.offsetMs(), 1.0, "one machine's clock: no offset");
                    assertTrue(w.offsetUncertaintyMs() < 5, "a loopback round trip: " + w.offsetUncertaintyMs());
                    assertEquals(42, w.records(), 10, "8 users dealt 2 a worker: about a quarter of 168 each");
                }
            } finally {
                workers.forEach(Worker::close);
            }
        }
    }

    private static RequestRecord record(long index, long ttftMicros, long endMillis) {
        long first = ttftMicros * 1000;
        return RequestRecord.completed(
                index, 0, 0, new long[] {first, first + 1_000_000}, endMillis * 1_000_000, 10, TokenSource.USAGE, 2, 0);
    }

    @Test
    void theMergeHandsOnEveryRecordSoPercentilesAreThoseOfAllOfThem() {
        List<RequestRecord> a = new ArrayList<>();
        List<RequestRecord> b = new ArrayList<>();
        // two very different workers: averaging their percentiles would be far off the merged ones
        for (int i = 0; i < 90; i++) a.add(record(2L * i, 1_000 + i, 10 + i));
        for (int i = 0; i < 10; i++) b.add(record(2L * i + 1, 500_000 + 1_000 * i, 900 + i));
        MeasurementRequest p = closed(2, 100);
        try (ScriptedWorker w0 = new ScriptedWorker(TOKEN, a, ScriptedWorker.Ending.END);
                ScriptedWorker w1 = new ScriptedWorker(TOKEN, b, ScriptedWorker.Ending.END);
                Coordinator c = new Coordinator(List.of(w0.url(), w1.url()), TOKEN, spec(), 0, "merge")) {
            Run run = run(c, p);
            List<RequestRecord> both = new ArrayList<>(a);
            both.addAll(b);
            assertEquals(100, run.records().size());
            Summary merged = summary(p, run.records());
            Summary direct = summary(p, both);
            for (Metric m : List.of(Metric.TTFT_MS, Metric.E2E_MS)) {
                assertEquals(direct.distribution(m), merged.distribution(m), m + ": the merged records' own");
            }
            assertTrue(merged.distribution(Metric.TTFT_MS).p99() > 400, "the slow worker's tail is in the p99");
            assertEquals(new dev.headroom.model.Share(1, 2), w1.job.share());
            assertEquals("merge/0", w1.job.runSalt(), "one salt for every worker of a point");
        }
    }

    private static TargetSpec spec() {
        return new TargetSpec(
                "http://127.0.0.1:9", "chat", "m", "NO_KEY", null, Map.of(), false, "auto", 1000, 1000, 1000);
    }

    @Test
    void aWorkerThatDiesMidRunIsNamedAndItsRecordsAreKept() {
        List<RequestRecord> a = new ArrayList<>();
        List<RequestRecord> b = new ArrayList<>();
        for (int i = 0; i < 20; i++) a.add(record(2L * i, 1_000, 10));
        for (int i = 0; i < 5; i++) b.add(record(2L * i + 1, 1_000, 10));
        try (ScriptedWorker w0 = new ScriptedWorker(TOKEN, a, ScriptedWorker.Ending.END);
                ScriptedWorker w1 = new ScriptedWorker(TOKEN, b, ScriptedWorker.Ending.DIE);
                Coordinator c = new Coordinator(List.of(w0.url(), w1.url()), TOKEN, spec(), 0, "die")) {
            Run run = run(c, closed(2, 40));
            assertEquals(25, run.records().size(), "the dead worker's records so far are kept");
            WorkerRun dead = run.measurement().notes().workers().get(1);
            assertTrue(dead.degraded());
            assertTrue(dead.problem().startsWith("died mid-run"), dead.problem());
            assertEquals(5, dead.records());
            assertNull(run.measurement().notes().workers().get(0).problem());
        }
    }

    @Test
    void aClosedLoopOfFewerUsersThanWorkersLeavesNoWorkerWithoutUsers() {
        List<RequestRecord> a = List.of(record(0, 1_000, 10), record(1, 1_000, 10), record(2, 1_000, 10));
        try (ScriptedWorker w0 = new ScriptedWorker(TOKEN, a, ScriptedWorker.Ending.END);
                ScriptedWorker w1 = new ScriptedWorker(TOKEN, List.of(), ScriptedWorker.Ending.END);
                Coordinator c = new Coordinator(List.of(w0.url(), w1.url()), TOKEN, spec(), 0, "one")) {
            Run run = run(c, closed(1, 3));
            assertEquals(1, run.measurement().notes().workers().size());
            assertEquals(new dev.headroom.model.Share(0, 1), w0.job.share(), "the one user's worker has it all");
            assertNull(w1.job, "no share for a worker that would have no user, and so no quota of the count");
            assertEquals(3, run.records().size());
        }
    }

    @Test
    void aStalledWorkerIsNamedAndToldToStop() {
        try (ScriptedWorker w0 = new ScriptedWorker(TOKEN, List.of(record(0, 1_000, 10)), ScriptedWorker.Ending.END);
                ScriptedWorker w1 =
                        new ScriptedWorker(TOKEN, List.of(record(1, 1_000, 10)), ScriptedWorker.Ending.STALL);
                Coordinator c = new Coordinator(
                        List.of(w0.url(), w1.url()), TOKEN, spec(), 0, "stall", Duration.ofMillis(1500))) {
            Run run = run(c, closed(2, 2));
            WorkerRun stalled = run.measurement().notes().workers().get(1);
            assertTrue(stalled.problem().startsWith("stalled"), stalled.problem());
            assertTrue(w1.stopped, "the stalled worker was told to stop");
            assertEquals(2, run.records().size());
        }
    }

    @Test
    void aWorkerTakesOnlyItsRunToken() throws Exception {
        try (Worker w = Worker.start(new InetSocketAddress("127.0.0.1", 0), TOKEN)) {
            OkHttpClient http = new OkHttpClient();
            for (String auth : new String[] {"", "Bearer wrong-token-wrong-token", "Bearer " + TOKEN}) {
                Request.Builder rb = new Request.Builder().url(w.url() + "/clock");
                if (!auth.isEmpty()) rb.header("Authorization", auth);
                try (Response r = http.newCall(rb.build()).execute()) {
                    assertEquals(auth.endsWith(TOKEN) ? 200 : 401, r.code(), "with '" + auth + "'");
                }
            }
            http.dispatcher().executorService().shutdown();
        }
    }

    @Test
    void aKilledWorkerProcessLeavesADegradedRunWithItsRecords() throws Exception {
        MeasurementRequest p = new MeasurementRequest(
                new LoadModel.Open(20, new dev.headroom.model.ArrivalProcess.Constant()),
                Workload.fixed(64, 32),
                new RunLength(0, 8, 0, 0),
                9);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()));
                LocalWorkers local = LocalWorkers.start(2);
                Coordinator c = new Coordinator(
                        local.urls(), local.token(), TargetSpec.of(target(sim), "NO_KEY", null), 0, "kill")) {
            // Killed once it has streamed records of its own (worker 1 owns the odd arrivals), not at a fixed time: on
            // a loaded machine its JVM may take seconds to start.
            List<RequestRecord> got = Collections.synchronizedList(new ArrayList<>());
            Thread killer = Thread.ofPlatform().start(() -> {
                long deadline = System.nanoTime() + 30_000_000_000L;
                try {
                    while (ownRecords(got, 1) < 10 && System.nanoTime() < deadline) Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
                local.process(1).destroyForcibly();
            });
            Measurement m = c.measure(p, (Consumer<RequestRecord>) got::add);
            Run run = new Run(m, new ArrayList<>(got));
            killer.join();
            WorkerRun killed = run.measurement().notes().workers().get(1);
            assertTrue(killed.degraded(), "the killed worker is named");
            assertTrue(killed.records() > 0, "its records before it died are kept: " + killed.records());
            WorkerRun alive = run.measurement().notes().workers().get(0);
            assertNull(alive.problem());
            assertTrue(alive.records() >= 75, "the other ran its 80 arrivals: " + alive.records());
            assertEquals(alive.records() + killed.records(), run.records().size());
        }
    }
}
