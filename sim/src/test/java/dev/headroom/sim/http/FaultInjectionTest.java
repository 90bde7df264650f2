package dev.headroom.sim.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.sim.Fault;
import dev.headroom.sim.FaultPlan;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class FaultInjectionTest {
    static final String M = SimServerHttpTest.MODEL;

    /** Runs {@code body} against a server that injects {@code fault} into every request. */
    private static void withFault(Fault fault, ThrowingConsumer body) throws IOException {
        var plan = new FaultPlan(Map.of(fault, 1.0), Duration.ofMillis(400), Duration.ofMillis(400), 1);
        try (SimServer server = SimServer.start(
                SimServer.Config.loopback(SimServerHttpTest.engine()).withFaults(plan))) {
            body.accept(new SimClient(server));
        }
    }

    interface ThrowingConsumer {
        void accept(SimClient c) throws IOException;
    }

    private static SimClient.Streamed chat(SimClient c, int maxTokens) throws IOException {
        return c.stream("/v1/chat/completions", SimClient.chat(M, maxTokens, ""));
    }

    @Test
    void httpErrorsBeforeTheStream() throws IOException {
        for (var e : Map.of(Fault.HTTP_500, 500, Fault.HTTP_503, 503, Fault.HTTP_429, 429)
                .entrySet()) {
            withFault(e.getKey(), c -> {
                var s = chat(c, 10);
                assertEquals(e.getValue(), s.code());
                assertEquals(e.getKey().cliName(), s.headers().get("X-Headroom-Fault"));
            });
        }
    }

    @Test
    void resetDropsTheConnectionMidStream() throws IOException {
        withFault(Fault.RESET, c -> {
            var s = chat(c, 30);
            assertEquals(200, s.code());
            assertNotNull(s.error(), "reading past the reset must fail");
            assertTrue(s.lines().stream().noneMatch(SimClient.Line::isDone));
            assertTrue(s.lines().size() < 31);
        });
    }

    @Test
    void stallPausesTheStreamThenResumes() throws IOException {
        withFault(Fault.STALL, c -> {
            var s = chat(c, 20);
            assertNull(s.error());
            assertTrue(s.lines().getLast().isDone());
            long maxGap = 0;
            for (int i = 1; i < s.lines().size(); i++) {
                maxGap = Math.max(
                        maxGap, s.lines().get(i).nanos() - s.lines().get(i - 1).nanos());
            }
            assertTrue(maxGap >= 380_000_000L, "longest gap " + maxGap / 1e6 + " ms");
        });
    }

    @Test
    void malformedChunkIsNotJsonButTheStreamGoesOn() throws IOException {
        withFault(Fault.MALFORMED, c -> {
            var s = chat(c, 10);
            long bad = s.lines().stream()
                    .filter(l -> !l.isDone())
                    .filter(l -> {
                        try {
                            SimClient.JSON.readTree(l.data());
                            return false;
                        } catch (IOException e) {
                            return true;
                        }
                    })
                    .count();
            assertEquals(1, bad);
            assertTrue(s.lines().getLast().isDone());
        });
    }

    @Test
    void truncatedStreamEndsCleanlyWithoutFinishOrDone() throws IOException {
        withFault(Fault.TRUNCATED, c -> {
            var s = chat(c, 30);
            assertNull(s.error(), "the body ends cleanly");
            assertFalse(s.lines().isEmpty());
            assertTrue(s.lines().stream().noneMatch(SimClient.Line::isDone));
            assertTrue(s.lines().stream().noneMatch(l -> l.data().contains("\"finish_reason\":\"")));
        });
    }

    @Test
    void emptyCompletionHasNoTokens() throws IOException {
        withFault(Fault.EMPTY, c -> {
            var s = chat(c, 30);
            JsonNode usage = s.lines().get(s.lines().size() - 2).json();
            assertEquals(0, usage.at("/usage/completion_tokens").asInt());
            assertTrue(s.lines().getLast().isDone());
            try (Response r =
                    c.post("/v1/completions", "{\"model\":\"" + M + "\",\"prompt\":\"x\",\"max_tokens\":5}")) {
                assertEquals(
                        0,
                        SimClient.JSON
                                .readTree(r.body().string())
                                .at("/usage/completion_tokens")
                                .asInt());
            }
        });
    }

    @Test
    void slowHeadersDelayTheResponse() throws IOException {
        withFault(Fault.SLOW_HEADERS, c -> {
            var s = chat(c, 3);
            assertTrue(s.headersNanos() >= 380_000_000L, "headers after " + s.headersNanos() / 1e6 + " ms");
            assertTrue(s.lines().getLast().isDone());
        });
    }

    @Test
    void faultRatesAreSeededAndRoughlyHonoured() {
        var plan = new FaultPlan(Map.of(Fault.RESET, 0.1, Fault.HTTP_500, 0.05), Duration.ZERO, Duration.ZERO, 9);
        int resets = 0, errors = 0;
        for (int n = 0; n < 20_000; n++) {
            Fault f = plan.draw(n);
            if (f == Fault.RESET) resets++;
            if (f == Fault.HTTP_500) errors++;
            assertEquals(f, plan.draw(n), "same request number, same fault");
        }
        assertEquals(2000, resets, 150);
        assertEquals(1000, errors, 100);
    }

    @Test
    void badFaultSpecsNameTheProblem() {
        var e = assertThrows(IllegalArgumentException.class, () -> FaultPlan.parseRate("boom=0.1"));
        assertTrue(e.getMessage().contains("boom") && e.getMessage().contains("reset"));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.parseRate("reset"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new FaultPlan(Map.of(Fault.RESET, 0.7, Fault.STALL, 0.6), Duration.ZERO, Duration.ZERO, 0));
    }

    @Test
    void queueFullGets429() throws IOException {
        var engine = SimServerHttpTest.engine().withMaxNumSeqs(1).withMaxWaiting(1);
        try (SimServer server = SimServer.start(SimServer.Config.loopback(engine))) {
            var c = new SimClient(server);
            // Occupy the only batch slot with a long stream, then the only queue slot.
            try (Response first = c.post("/v1/chat/completions", SimClient.chat(M, 2000, ""))) {
                first.body().source().readUtf8Line(); // its first event: it is running
                var second = new Thread(() -> {
                    try (Response r = c.post("/v1/chat/completions", SimClient.chat(M, 5, ""))) {
                        r.body().string();
                    } catch (IOException ignored) {
                        // closed when the test ends
                    }
                });
                second.start();
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!server.metricsText().contains("vllm:num_requests_waiting{model_name=\"" + M + "\"} 1")
                        && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                try (Response third = c.post("/v1/chat/completions", SimClient.chat(M, 5, ""))) {
                    assertEquals(429, third.code());
                    assertTrue(third.body().string().contains("queue is full"));
                }
            }
        }
    }
}
