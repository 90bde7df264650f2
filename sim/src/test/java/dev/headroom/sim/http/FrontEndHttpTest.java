package dev.headroom.sim.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The HTTP simulator's front end on the real clock: one serving process, requests and tokens through it in turn. */
class FrontEndHttpTest {
    private static SimServer serve(StepTerm term, double value) {
        HardwareProfile hw = Profiles.hardware("h100-sxm").with(term, value);
        EngineConfig engine =
                EngineConfig.defaults(hw, Profiles.model("llama-3.1-8b")).withNoise(0, 0, 0);
        return SimServer.start(SimServer.Config.loopback(engine));
    }

    @Test
    void requestsSentTogetherAreTakenInOneAfterAnother() throws Exception {
        try (SimServer server = serve(StepTerm.FRONTEND_REQUEST_MS, 300)) {
            SimClient client = new SimClient(server);
            ExecutorService pool = Executors.newFixedThreadPool(3);
            List<CompletableFuture<Double>> firsts = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                firsts.add(CompletableFuture.supplyAsync(
                        () -> {
                            long start = System.nanoTime();
                            try {
                                var s = client.stream(
                                        "/v1/chat/completions", SimClient.chat(SimServerHttpTest.MODEL, 2, ""));
                                assertEquals(200, s.code());
                                return (s.lines().get(0).nanos() - start) / 1e6;
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        },
                        pool));
            }
            double min = Double.MAX_VALUE, max = 0;
            for (var f : firsts) {
                double ms = f.get();
                min = Math.min(min, ms);
                max = Math.max(max, ms);
            }
            pool.shutdown();
            // 300 ms each, one at a time: the first is in after 300 ms, the third after 900 (a slow machine adds).
            assertTrue(min >= 295, "the first request's first chunk after " + min + " ms");
            assertTrue(max >= 895, "the third request's first chunk after " + max + " ms");
        }
    }

    @Test
    void eachStreamedTokenWaitsItsTurnAtTheFrontEnd() throws Exception {
        try (SimServer server = serve(StepTerm.FRONTEND_TOKEN_US, 5000)) {
            SimClient client = new SimClient(server);
            // Four streams of 40 tokens: 160 tokens at 5 ms each through one process take at least 800 ms, though
            // the engine makes them all in 40 steps of ~7 ms (about 300 ms with the first token).
            ExecutorService pool = Executors.newFixedThreadPool(4);
            long start = System.nanoTime();
            List<CompletableFuture<Long>> ends = new ArrayList<>();
            for (int i = 0; i < 4; i++) ends.add(CompletableFuture.supplyAsync(() -> stream(client), pool));
            long last = 0;
            for (var f : ends) last = Math.max(last, f.get());
            pool.shutdown();
            double ms = (last - start) / 1e6;
            assertTrue(ms >= 795, "160 tokens through a 5 ms front end took " + ms + " ms");
        }
    }

    private static long stream(SimClient client) {
        try {
            var s = client.stream("/v1/chat/completions", SimClient.chat(SimServerHttpTest.MODEL, 40, ""));
            assertEquals(43, s.lines().size(), s.lines().toString());
            return s.lines().get(40).nanos();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
