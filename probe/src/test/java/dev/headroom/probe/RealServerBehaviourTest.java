package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metric;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Summary;
import dev.headroom.model.TokenSource;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.http.SimServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The probe against the simulator behaving as the servers users run do: closing connections after each response or
 * when idle, speaking another server's /tokenize or none, and serving repeated prompts from its prefix cache.
 */
class RealServerBehaviourTest {

    private static SimServer start(ServerBehaviour b) {
        return SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()).withBehaviour(b));
    }

    private static MeasurementRequest closed(int users, Duration think, int requests, int warmupRequests) {
        return Points.of(
                new LoadModel.Closed(users),
                think,
                0,
                null,
                requests,
                Duration.ZERO,
                warmupRequests,
                Duration.ZERO,
                Duration.ofSeconds(30),
                7);
    }

    private static Summary summary(ProbeResult r) {
        return Metrics.summarize(r.records(), false, List.of());
    }

    @Test
    void noClientCausedFailureAt64UsersAgainstAServerThatClosesAfterEveryResponse() {
        try (SimServer sim = start(ServerBehaviour.vllm().withCloseAfterStream(true))) {
            ProbeResult r = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(64, 8), closed(64, Duration.ZERO, 640, 0), x -> {});
            Summary s = summary(r);
            assertEquals(640, s.counts().completed(), r.connections());
            assertEquals(0, s.counts().failed());
            assertEquals(0, s.counts().clientErrors());
            assertTrue(
                    r.records().stream().allMatch(x -> x.connection() == RequestRecord.Connection.NEW),
                    r.records().stream()
                            .collect(java.util.stream.Collectors.groupingBy(
                                    RequestRecord::connection, java.util.stream.Collectors.counting()))
                            .toString());
            assertTrue(r.connections().contains("a new connection per request"), r.connections());
        }
    }

    @Test
    void aServerThatClosesIdleConnectionsCostsAtMostOneStaleRequestPerConnectionAndNoServerError() {
        try (SimServer sim = start(ServerBehaviour.vllm().withIdleTimeout(Duration.ofMillis(300)))) {
            ProbeResult r = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(32, 4), closed(2, Duration.ofMillis(600), 12, 0), x -> {});
            Summary s = summary(r);
            assertEquals(0, s.counts().failed(), "a connection the server closed is never the server's error");
            assertTrue(
                    s.counts().clientErrors() <= 2,
                    "at most one race per user before the client reuses less: "
                            + s.counts().clientErrors());
            assertEquals(12, s.counts().completed() + s.counts().clientErrors());
            List<RequestRecord> late = r.records().subList(6, 12);
            assertTrue(late.stream().allMatch(RequestRecord::succeeded), "learned: " + r.connections());
        }
    }

    @Test
    void inputLengthsLandWithinOnePercentOnEveryTokenizeShapeAndWithoutOne() {
        for (ServerBehaviour.Tokenize shape : ServerBehaviour.Tokenize.values()) {
            for (Api api : Api.values()) {
                for (int warmup : new int[] {0, 3}) {
                    try (SimServer sim = start(ServerBehaviour.vllm().withTokenize(shape))) {
                        Target t = ProbeSimTest.target(sim);
                        t = new Target(
                                t.baseUrl(),
                                api,
                                null,
                                null,
                                t.headers(),
                                false,
                                t.connectTimeout(),
                                t.firstTokenTimeout(),
                                t.totalTimeout());
                        ProbeResult r = new Probe(t)
                                .run(ProbeSimTest.fixed(237, 4), closed(2, Duration.ZERO, 6, warmup), x -> {});
                        double isl = summary(r).distribution(Metric.ISL).mean();
                        String what =
                                shape + " " + api + " warm-up " + warmup + ": isl " + isl + " via " + r.inputLength();
                        assertEquals(237, isl, 237 * 0.01, what);
                    }
                }
            }
        }
    }

    @Test
    void usageInsideTheLastTokensChunkIsReadAsWellAsUsageInAChunkOfItsOwn() {
        for (ServerBehaviour.Usage place : ServerBehaviour.Usage.values()) {
            try (SimServer sim = start(ServerBehaviour.vllm().withUsage(place))) {
                ProbeResult r = new Probe(ProbeSimTest.target(sim))
                        .run(ProbeSimTest.fixed(100, 8), closed(2, Duration.ZERO, 6, 0), x -> {});
                for (RequestRecord x : r.records()) {
                    assertTrue(x.succeeded(), place + ": " + x);
                    assertEquals(TokenSource.USAGE, x.completionSource(), place.toString());
                    assertEquals(8, x.completionTokens());
                    assertEquals(8, x.chunkNanos().length, "usage does not add a chunk: " + place);
                    assertEquals(0, x.cachedTokens(), place.toString());
                }
            }
        }
    }

    @Test
    void twoRunsInARowSeeNoCacheHitWhileARepeatedSaltIsServedFromTheCache() {
        try (SimServer sim = start(ServerBehaviour.vllm())) {
            Target t = ProbeSimTest.target(sim);
            WorkloadSpec w = ProbeSimTest.fixed(400, 4);
            for (int run = 0; run < 2; run++) {
                Summary s = summary(new Probe(t).run(w, closed(2, Duration.ZERO, 10, 0), x -> {}));
                assertEquals(10, s.cache().reporting());
                assertEquals(0, s.cache().hits(), "run " + run + ": same seed, new salt, nothing cached: " + s.cache());
            }
            Probe fixed = new Probe(t, "same");
            Summary first = summary(fixed.run(w, closed(2, Duration.ZERO, 10, 0), x -> {}));
            assertEquals(0, first.cache().hits());
            // A second probe with the same salt repeats the first one's prompts, run for run: the cache serves them.
            Summary again = summary(new Probe(t, "same").run(w, closed(2, Duration.ZERO, 10, 0), x -> {}));
            assertEquals(10, again.cache().hits(), again.cache().toString());
            assertTrue(again.cache().cachedFraction() > 0.9, again.cache().toString());
        }
    }

    @Test
    void aSharedPrefixIsServedFromTheCacheAsAsked() {
        try (SimServer sim = start(ServerBehaviour.vllm())) {
            WorkloadSpec w =
                    new WorkloadSpec(new LengthDistribution.Fixed(400), new LengthDistribution.Fixed(4), true, 256);
            ProbeResult r = new Probe(ProbeSimTest.target(sim)).run(w, closed(1, Duration.ZERO, 6, 0), x -> {});
            List<RequestRecord> rs = r.records();
            for (RequestRecord x : rs.subList(1, rs.size())) {
                assertTrue(
                        x.cachedTokens() >= 256 - 16 && x.cachedTokens() < 400 - 16,
                        "the prefix, not the rest: " + x.cachedTokens());
            }
        }
    }
}
