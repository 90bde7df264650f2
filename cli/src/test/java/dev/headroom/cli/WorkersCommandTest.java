package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.distributed.Worker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

    /** Every field path of {@code node} ("counts.completed", "ttft_ms.p50"), arrays' elements merged. */
    private static Set<String> paths(JsonNode node, String prefix) {
        Set<String> out = new TreeSet<>();
        if (node.isObject()) {
            node.properties().forEach(e -> {
                String p = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                out.add(p);
                out.addAll(paths(e.getValue(), p));
            });
        } else if (node.isArray()) {
            for (JsonNode each : node) out.addAll(paths(each, prefix + "[]"));
        }
        return out;
    }

    private static CliTest.Run probe(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "probe",
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
                "json"));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(String[]::new));
    }

    @Test
    void aDistributedRunsFilesHaveTheFormOfOneProcesssPlusItsWorkers(@TempDir Path tmp) throws IOException {
        Path one = tmp.resolve("one");
        Path four = tmp.resolve("four");
        var single = probe(one);
        assertEquals(0, single.code(), single.err());
        var r = probe(four, "--workers", "4");
        assertEquals(0, r.code(), r.err());
        ObjectMapper json = new ObjectMapper();
        JsonNode a = json.readTree(one.resolve("summary.json").toFile());
        JsonNode b = json.readTree(four.resolve("summary.json").toFile());
        Set<String> expected = paths(a, "");
        Set<String> got = paths(b, "");
        got.removeIf(p -> p.equals("workers") || p.startsWith("workers."));
        assertEquals(expected, got, "summary.json: the same fields, and a workers section");
        assertEquals(a.path("counts"), b.path("counts"), "the same counts");
        List<String> la = Files.readAllLines(one.resolve("requests.jsonl"));
        List<String> lb = Files.readAllLines(four.resolve("requests.jsonl"));
        assertEquals(la.size(), lb.size());
        for (String line : lb) {
            assertEquals(paths(json.readTree(la.getFirst()), ""), paths(json.readTree(line), ""), line);
        }
        assertEquals(
                Files.readAllLines(one.resolve("requests.csv")).getFirst(),
                Files.readAllLines(four.resolve("requests.csv")).getFirst(),
                "requests.csv: the same columns");
        assertEquals(
                Files.readAllLines(one.resolve("requests.csv")).size(),
                Files.readAllLines(four.resolve("requests.csv")).size());
    }

    @Test
    void aWorkerThatDiesMidRunLeavesADegradedRunWithItsRecords(@TempDir Path tmp) throws Exception {
        String token = "0123456789abcdef0123";
        Path tokenFile = Files.writeString(tmp.resolve("token"), token + "\n");
        Worker w0 = Worker.start(new InetSocketAddress("127.0.0.1", 0), token);
        Worker w1 = Worker.start(new InetSocketAddress("127.0.0.1", 0), token);
        Thread killer = Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(3_000);
            } catch (InterruptedException e) {
                return;
            }
            w1.close();
        });
        Path dir = tmp.resolve("run");
        try {
            var r = CliTest.run(
                    "probe",
                    "--workers",
                    w0.url() + "," + w1.url(),
                    "--worker-token-file",
                    tokenFile.toString(),
                    "--concurrency",
                    "4",
                    "--duration",
                    "12s",
                    "--isl",
                    "64",
                    "--osl",
                    "64",
                    "--out",
                    dir.toString(),
                    "--no-report",
                    "--format",
                    "json");
            assertEquals(7, r.code(), r.out() + r.err());
            assertTrue(r.err().contains("worker 1"), r.err());
            assertFalse(r.err().contains(token) || r.out().contains(token), "the run token is never printed");
        } finally {
            killer.interrupt();
            w0.close();
            w1.close();
        }
        JsonNode s = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        JsonNode w = s.path("workers");
        assertTrue(w.path("degraded").asBoolean(), w.toString());
        JsonNode dead = w.path("each").get(1);
        assertTrue(dead.path("problem").asText().contains("died mid-run"), dead.toString());
        assertTrue(dead.path("records").asLong() > 0, "its records before it died: " + dead);
        long records = 0;
        for (JsonNode each : w.path("each")) records += each.path("records").asLong();
        assertEquals(Files.readAllLines(dir.resolve("requests.jsonl")).size(), records, "every record kept");
        try (var files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertFalse(new String(Files.readAllBytes(f)).contains(token), f + " holds the token");
            }
        }
    }
}
