package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ErrorKind;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import dev.headroom.sim.Fault;
import dev.headroom.sim.FaultPlan;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import dev.headroom.sim.profile.Profiles;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class ProbeSimTest {

    static EngineConfig engine() {
        return EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0);
    }

    static Target target(SimServer s) {
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

    static MeasurementRequest closed(int users, int requests, int warmupRequests) {
        return Points.of(
                new LoadModel.Closed(users),
                Duration.ZERO,
                0,
                null,
                requests,
                Duration.ZERO,
                warmupRequests,
                Duration.ZERO,
                Duration.ofSeconds(30),
                1);
    }

    static WorkloadSpec fixed(int isl, int osl) {
        return new WorkloadSpec(new LengthDistribution.Fixed(isl), new LengthDistribution.Fixed(osl), true, 0);
    }

    @Test
    void closedLoopNeverExceedsItsUsersAndOutputLengthIsExact() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()))) {
            ProbeResult r = new Probe(target(sim)).run(fixed(200, 32), closed(4, 40, 0), rec -> {});
            assertEquals("meta-llama/Llama-3.1-8B-Instruct", r.target().model(), "model from GET /v1/models");
            assertEquals(40, r.records().size());
            assertTrue(r.peakInFlight() <= 4 && r.peakInFlight() >= 2, "peak in flight " + r.peakInFlight());
            for (RequestRecord rec : r.records()) {
                assertTrue(rec.succeeded(), rec.toString());
                assertEquals(32, rec.completionTokens());
                assertEquals(TokenSource.USAGE, rec.completionSource());
                assertEquals(32, rec.chunkNanos().length, "one chunk per token from the simulator");
                assertEquals(200, rec.promptTokens(), "ISL hit exactly via /tokenize calibration");
            }
            assertTrue(r.inputLength().startsWith("server /tokenize (vLLM/SGLang shape)"), r.inputLength());
        }
    }

    /** Time stands still on a virtual clock while no thread sleeps on it: every time the run took is that clock's. */
    @Test
    void aProbeTimesItsRunOnTheClockItIsGiven() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()));
                VirtualTicker ticker = new VirtualTicker()) {
            ProbeResult r = new Probe(target(sim), "salt", ticker).run(fixed(20, 4), closed(2, 6, 0), rec -> {});
            assertEquals(6, r.records().size());
            assertEquals(VirtualTicker.EPOCH_MICROS, r.startEpochMicros());
            assertEquals(0, r.elapsedSeconds());
            for (RequestRecord rec : r.records()) {
                assertTrue(rec.succeeded(), rec.toString());
                List<Long> times = List.of(rec.intendedNanos(), rec.sentNanos(), rec.firstTokenNanos(), rec.endNanos());
                assertEquals(List.of(0L, 0L, 0L, 0L), times, "on the real clock these would have moved");
            }
        }
    }

    @Test
    void warmupRequestsAreMarkedAndCounted() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()))) {
            ProbeResult r = new Probe(target(sim)).run(fixed(50, 8), closed(2, 10, 4), rec -> {});
            assertEquals(14, r.records().size());
            assertEquals(4, r.records().stream().filter(RequestRecord::warmup).count());
            assertTrue(r.records().stream().filter(RequestRecord::warmup).allMatch(x -> x.index() < 4));
        }
    }

    @Test
    void openLoopSendTimesDoNotMoveWhenTheServerSlows() {
        // One sequence at a time and 60-token outputs (~0.4 s each): the server falls far behind 20 requests/s.
        EngineConfig slow = engine().withMaxNumSeqs(1);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(slow))) {
            var plan = Points.of(
                    new LoadModel.Open(20, new ArrivalProcess.Constant()),
                    Duration.ZERO,
                    0,
                    null,
                    30,
                    Duration.ZERO,
                    0,
                    Duration.ZERO,
                    Duration.ofSeconds(60),
                    3);
            ProbeResult r = new Probe(target(sim)).run(fixed(50, 60), plan, rec -> {});
            assertEquals(30, r.records().size());
            for (RequestRecord rec : r.records()) {
                assertEquals(rec.index() * 50_000_000L, rec.intendedNanos(), "slot of request " + rec.index());
                // On schedule, while the server falls seconds behind (a loose bound: CI machines are shared).
                assertTrue(
                        rec.sendLagNanos() < 50_000_000L, "sent on schedule: lag " + rec.sendLagNanos() / 1e6 + " ms");
            }
            // Queueing in the server shows up in TTFT measured from the intended time.
            RequestRecord last = r.records().getLast();
            assertTrue(last.succeeded(), last.toString());
            assertTrue(last.firstTokenNanos() - last.intendedNanos()
                    > 10 * (rec0(r).firstTokenNanos() - rec0(r).intendedNanos()));
        }
    }

    private static RequestRecord rec0(ProbeResult r) {
        return r.records().getFirst();
    }

    @Test
    void everyInjectedFaultIsClassified() {
        Map<Fault, ErrorKind> expected = Map.of(
                Fault.HTTP_500,
                ErrorKind.HTTP_5XX,
                Fault.HTTP_503,
                ErrorKind.HTTP_5XX,
                Fault.HTTP_429,
                ErrorKind.HTTP_429,
                Fault.RESET,
                ErrorKind.RESET,
                Fault.MALFORMED,
                ErrorKind.MALFORMED_EVENT,
                Fault.TRUNCATED,
                ErrorKind.TRUNCATED,
                Fault.EMPTY,
                ErrorKind.EMPTY);
        for (var e : expected.entrySet()) {
            var faults = new FaultPlan(Map.of(e.getKey(), 1.0), Duration.ofSeconds(3), Duration.ofSeconds(3), 1);
            try (SimServer sim =
                    SimServer.start(SimServer.Config.loopback(engine()).withFaults(faults))) {
                ProbeResult r = new Probe(target(sim)).run(fixed(20, 16), closed(2, 4, 0), rec -> {});
                for (RequestRecord rec : r.records()) {
                    assertTrue(rec.failed(), e.getKey() + ": " + rec);
                    assertEquals(e.getValue(), rec.failure().kind(), e.getKey() + ": " + rec.failure());
                    assertNotNull(rec.failure().message());
                }
            }
        }
    }

    @Test
    void stallsAndSlowHeadersHitTheTimeouts() {
        var stall = new FaultPlan(Map.of(Fault.STALL, 1.0), Duration.ofSeconds(3), Duration.ofSeconds(3), 1);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()).withFaults(stall))) {
            Target t = new Target(
                    sim.baseUri(),
                    Api.CHAT,
                    null,
                    null,
                    Map.of(),
                    false,
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(1));
            ProbeResult r = new Probe(t).run(fixed(20, 64), closed(1, 2, 0), rec -> {});
            assertTrue(
                    r.records().stream()
                            .allMatch(x -> x.failure() != null && x.failure().kind() == ErrorKind.TIMEOUT_TOTAL),
                    r.records().toString());
        }
        var slow = new FaultPlan(Map.of(Fault.SLOW_HEADERS, 1.0), Duration.ofSeconds(3), Duration.ofSeconds(3), 1);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()).withFaults(slow))) {
            Target t = new Target(
                    sim.baseUri(),
                    Api.CHAT,
                    null,
                    null,
                    Map.of(),
                    false,
                    Duration.ofSeconds(5),
                    Duration.ofMillis(500),
                    Duration.ofSeconds(10));
            ProbeResult r = new Probe(t).run(fixed(20, 8), closed(1, 2, 0), rec -> {});
            assertTrue(
                    r.records().stream()
                            .allMatch(x -> x.failure() != null && x.failure().kind() == ErrorKind.TIMEOUT_FIRST_TOKEN),
                    r.records().toString());
        }
    }

    @Test
    void aClosedPortIsAConnectFailureNotACrash() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Target t = new Target(
                java.net.URI.create("http://127.0.0.1:" + port),
                Api.COMPLETIONS,
                "m",
                null,
                Map.of(),
                false,
                Duration.ofSeconds(2),
                Duration.ofSeconds(2),
                Duration.ofSeconds(5));
        ProbeResult r = new Probe(t).run(fixed(20, 8), closed(1, 3, 0), rec -> {});
        assertEquals(3, r.records().size());
        assertTrue(
                r.records().stream().allMatch(x -> x.failure().kind() == ErrorKind.CONNECT),
                r.records().toString());
    }

    @Test
    void unknownModelIsAnHttp4xx() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()))) {
            ProbeResult r = new Probe(target(sim).withModel("nope")).run(fixed(20, 8), closed(1, 2, 0), rec -> {});
            assertTrue(r.records().stream()
                    .allMatch(x -> x.failure().kind() == ErrorKind.HTTP_4XX && x.httpStatus() == 404));
            assertTrue(r.records().getFirst().failure().message().contains("does not exist"));
        }
    }

    @Test
    void requestsAreStreamedToTheSinkAsTheyFinish() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()))) {
            var seen = new ConcurrentLinkedQueue<RequestRecord>();
            ProbeResult r = new Probe(target(sim)).run(fixed(20, 4), closed(3, 12, 0), seen::add);
            assertEquals(List.copyOf(r.records()).size(), seen.size());
        }
    }

    @Test
    void clientTimingMatchesTheServersGroundTruth() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine()))) {
            ProbeResult r = new Probe(target(sim)).run(fixed(100, 20), closed(8, 40, 0), rec -> {});
            List<Long> errors = new java.util.ArrayList<>();
            for (RequestRecord rec : r.records()) {
                long[] server = sim.tokenWrittenEpochMicros(rec.responseId());
                assertNotNull(server, "trace of " + rec.responseId());
                assertEquals(server.length, rec.chunkNanos().length, "one client chunk per server token");
                for (int i = 0; i < server.length; i++) {
                    errors.add(Math.abs(r.startEpochMicros() + rec.chunkNanos()[i] / 1000 - server[i]));
                }
            }
            errors.sort(null);
            // Same machine, loopback: the client sees a token within a few ms of the server writing it (the
            // benchmark measures the distribution; this checks the clocks line up at all).
            long median = errors.get(errors.size() / 2);
            assertTrue(median < 5_000, "median timing error " + median + " us");
        }
    }
}
