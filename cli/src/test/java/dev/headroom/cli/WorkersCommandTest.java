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

/** {@code --workers} as a user runs it: one merged run directory, a workers section, bad values refused. */
class WorkersCommandTest {

    @Test
    void probeWithTwoWorkersWritesOneMergedRunWithItsWorkers(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        var r = CliTest.run(
                "probe",
                "--workers",
                "2",
                "--concurrency",
                "4",
                "--requests",
                "40",
                "--isl",
                "64",
                "--osl",
                "16",
                "--warmup-requests",
                "4",
                "--sim-noise",
                "0",
                "--out",
                dir.toString(),
                "--no-report",
                "--format",
                "json");
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertEquals("headroom.probe/v1", s.path("schema").asText());
        assertEquals(40, s.path("counts").path("completed").asLong(), s.toString());
        JsonNode w = s.path("workers");
        assertEquals(2, w.path("count").asInt());
        assertFalse(w.path("degraded").asBoolean());
        long records = 0;
        for (JsonNode each : w.path("each")) {
            assertTrue(each.path("problem").isNull(), each.toString());
            records += each.path("records").asLong();
        }
        long lines = Files.readAllLines(dir.resolve("requests.jsonl")).size();
        assertEquals(lines, records, "every worker's records in the one requests.jsonl");
        assertEquals(44, lines, "40 measured and 4 warm-up, split between the workers");
        assertTrue(Files.isRegularFile(dir.resolve("histograms.hlog")));
    }

    @Test
    void badWorkersAreRefusedInOneLineNamingTheValue() {
        for (String[] args : new String[][] {
            {"probe", "--workers", "0", "--requests", "4"},
            {"probe", "--workers", "ftp://x:1", "--requests", "4"},
            {"probe", "--workers", "2", "--virtual", "--requests", "4"}
        }) {
            var r = CliTest.run(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains("--workers"), r.err());
        }
    }

    @Test
    void kubeDryRunPrintsTheManifestsAndMakesNothing() {
        var r = CliTest.run(
                "kube",
                "--workers",
                "3",
                "--image",
                "ghcr.io/x/headroom:1",
                "--namespace",
                "load",
                "--api-key-secret",
                "llm-key",
                "--dry-run",
                "probe",
                "--url",
                "http://vllm:8000",
                "--rate",
                "50");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Indexed") && r.out().contains("completions: 3"), r.out());
        assertTrue(r.out().contains("HEADROOM_WORKER_TOKEN") && r.out().contains("secretKeyRef"), r.out());
        assertTrue(r.out().contains("never printed"), "the token's Secret without its value: " + r.out());
        var bad = CliTest.run("kube", "--workers", "3", "--image", "x", "--dry-run", "frobnicate");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("frobnicate"), bad.err());
        var ns = CliTest.run("kube", "--workers", "3", "--image", "x", "--namespace", "Bad_NS", "--dry-run", "probe");
        assertEquals(2, ns.code(), ns.err());
        assertTrue(ns.err().contains("--namespace"), ns.err());
    }

    @Test
    void aWorkerWithoutItsTokenDoesNotStart() {
        var r = CliTest.run("worker", "--token-file", "/nonexistent/headroom-token");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("--token-file"), r.err());
    }
}
