package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads against a llama.cpp-like server of 4 slots of 1,024 tokens: what cannot fit one slot's context is refused
 * before the run, in one line, with nothing written, by probe, sweep and search alike; sessions that fit land where
 * the client counted them under Llama 3.1's chat template.
 */
class ContextFitTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static void refusedBeforeAnything(CliTest.Run r, Path out, String part) {
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(part), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void sessionsWhoseLastTurnOverflowsASlotAreRefusedNamingTheTurnAndTheContext(@TempDir Path tmp) {
        Path out = tmp.resolve("p");
        var r = CliTest.run(
                "probe",
                "--sessions",
                "8",
                "--turns",
                "5",
                "--turn-isl",
                "150",
                "--turn-osl",
                "32",
                "--system-prompt-tokens",
                "256",
                "--sim-server",
                "llama.cpp",
                "--no-report",
                "--out",
                out.toString());
        refusedBeforeAnything(r, out, "turn 5 of each session");
        assertTrue(r.err().contains("1024 tokens the server gives one request (GET /v1/models: meta.n_ctx)"), r.err());
    }

    @Test
    void requestsThatOverflowASlotAreRefusedBySweepAndSearchOverHttpAndOnTheVirtualClock(@TempDir Path tmp) {
        Path sweep = tmp.resolve("sweep");
        refusedBeforeAnything(
                CliTest.run(
                        "sweep",
                        "--concurrency",
                        "1,2",
                        "--isl",
                        "900",
                        "--osl",
                        "200",
                        "--sim-server",
                        "llama.cpp",
                        "--no-report",
                        "--out",
                        sweep.toString()),
                sweep,
                "does not fit the 1024 tokens the server gives one request");
        Path search = tmp.resolve("search");
        refusedBeforeAnything(
                CliTest.run(
                        "search",
                        "--virtual",
                        "--slo",
                        "ttft:p95<2s",
                        "--isl",
                        "900",
                        "--osl",
                        "200",
                        "--sim-server",
                        "llama.cpp",
                        "--no-report",
                        "--out",
                        search.toString()),
                search,
                "does not fit the 1024 tokens the simulator gives one request");
    }

    @Test
    void sessionsThatFitLandWithinOnePercentOfTheirComputedLength(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("p");
        var r = CliTest.run(
                "probe",
                "--sessions",
                "4",
                "--turns",
                "4",
                "--turn-isl",
                "128",
                "--turn-osl",
                "32",
                "--system-prompt-tokens",
                "256",
                "--requests",
                "32",
                "--sim-server",
                "llama.cpp",
                "--sim-chat-template",
                "llama-3.1",
                "--no-report",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        int n = 0;
        for (String line : Files.readAllLines(out.resolve("requests.jsonl"))) {
            JsonNode q = JSON.readTree(line);
            assertEquals("completed", q.path("outcome").asText(), line);
            double off = q.path("isl").asDouble() / q.path("isl_requested").asDouble() - 1;
            assertTrue(Math.abs(off) <= 0.01, line);
            n++;
        }
        assertTrue(n >= 32, "requests " + n);
    }
}
