package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.ClientHealth;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeCommandTest {

    /**
     * The README's main-job command, as a newcomer runs it first — in a JVM of its own started as the launcher starts
     * it: it runs, measures its own timing all along, and its verdict follows the rules of docs/metrics.md from what
     * it measured. Whether an idle machine reads {@code ok} is a timing figure (bench/readme-health.sh), not a unit
     * test: these machines are shared, and a neighbour's burst honestly makes the client's timestamps late.
     */
    @Test
    void theReadmesFirstCommandJudgesItsClientByTheRules(@TempDir Path tmp) throws IOException, InterruptedException {
        String line = Files.readAllLines(Path.of("..", "README.md")).stream()
                .filter(l -> l.startsWith("./headroom probe "))
                .findFirst()
                .orElseThrow();
        List<String> command =
                new ArrayList<>(List.of(line.replaceFirst("\\s*#.*", "").split("\\s+")));
        command.remove(0);
        Path run = tmp.resolve("run");
        command.addAll(List.of("--out", run.toString(), "--no-report"));
        System.gc(); // this JVM's garbage from the tests before, collected now rather than while the child measures
        Process p = headroom(command, tmp.resolve("stderr.txt"));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out + Files.readString(tmp.resolve("stderr.txt")));
        String verdict =
                out.lines().filter(l -> l.startsWith("client:")).findFirst().orElseThrow();
        JsonNode c = new ObjectMapper()
                .readTree(run.resolve("summary.json").toFile())
                .path("client");
        assertTrue(c.at("/scheduling_delay_ms/count").asLong() > 1000, "the ticker ran all along: " + c);
        assertTrue(c.path("timing_error_ms").isNumber(), "the timing error is stated: " + c);
        double sched = c.at("/scheduling_delay_ms/p99").asDouble();
        // Closed loop: a late send only delays that user's next request, so send lag alone must not make it bound
        // (the rule that cried wolf here); the embedded simulator shares the process, so CPU is not judged.
        List<String> reasons = new ArrayList<>();
        c.path("warnings").forEach(w -> reasons.add(w.asText()));
        boolean expected = sched > ClientHealth.SCHEDULING_DELAY_P99_LIMIT_MS
                || c.path("gc_pause_max_ms").asDouble() > ClientHealth.GC_PAUSE_LIMIT_MS;
        assertEquals(expected, c.path("client_bound").asBoolean(), "verdict against its own figures: " + c);
        assertEquals(
                expected,
                reasons.stream().anyMatch(r -> r.startsWith("scheduling delay") || r.startsWith("GC")),
                "a bound verdict names its reason: " + reasons);
        assertFalse(reasons.stream().anyMatch(r -> r.startsWith("send lag")), "send lag judged: " + reasons);
        assertFalse(reasons.stream().anyMatch(r -> r.startsWith("client CPU")), "shared CPU judged: " + reasons);
        assertTrue(verdict.endsWith(expected ? "· CLIENT-BOUND" : "· ok"), verdict + "\n" + c);
    }

    /** Headroom in a JVM of its own, started as the launcher starts it; standard error goes to {@code stderr}. */
    static Process headroom(List<String> args, Path stderr) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-XX:+UseZGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(args);
        return new ProcessBuilder(command)
                .redirectError(stderr.toFile())
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .start();
    }

    @Test
    void aRunKilledMidwayKeepsEveryFinishedRequest(@TempDir Path tmp) throws IOException, InterruptedException {
        Path run = tmp.resolve("run");
        Process p = headroom(
                List.of(
                        "probe",
                        "--concurrency",
                        "4",
                        "--osl",
                        "16",
                        "--duration",
                        "60s",
                        "--warmup",
                        "0s",
                        "--out",
                        run.toString()),
                tmp.resolve("stderr.txt"));
        Path log = run.resolve("requests.jsonl");
        long deadline = System.nanoTime() + 60_000_000_000L;
        long seen = 0;
        while (seen < 40 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            seen = Files.isRegularFile(log) ? Files.readAllLines(log).size() : 0;
        }
        p.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs
        p.waitFor();
        assertTrue(seen >= 40, "the run never got going: " + Files.readString(tmp.resolve("stderr.txt")));
        List<String> lines = Files.readAllLines(log);
        assertTrue(lines.size() >= seen, "lines seen before the kill are gone: " + lines.size() + " < " + seen);
        ObjectMapper json = new ObjectMapper();
        Set<Long> ids = new HashSet<>();
        for (String l : lines) {
            JsonNode r = json.readTree(l); // every line whole: none half-written
            assertTrue(ids.add(r.path("id").asLong()), "a request twice: " + l);
            assertEquals("completed", r.path("outcome").asText(), l);
        }
        assertFalse(Files.exists(run.resolve("summary.json")), "killed before the end, so no summary");

        var rebuilt = CliTest.run("rebuild", run.toString(), "--format", "json");
        assertEquals(0, rebuilt.code(), rebuilt.err());
        JsonNode summary = json.readTree(run.resolve("summary.json").toFile());
        assertEquals(lines.size(), summary.at("/counts/completed").asLong(), "every finished request is counted");
        assertEquals(lines.size(), summary.at("/metrics/osl/count").asLong());
        assertEquals(16, summary.at("/metrics/osl/p50").asDouble());
        assertTrue(summary.at("/metrics/ttft_ms/p50").asDouble() > 0, summary.toString());
        // No chunk times and no histograms.hlog of the killed run: itl is absent, and said to be.
        assertEquals(0, summary.at("/metrics/itl_ms/count").asLong());
        assertTrue(rebuilt.err().contains("itl not rebuilt"), rebuilt.err());
        assertTrue(Files.isRegularFile(run.resolve("histograms.hlog")));
    }

    @Test
    void rebuildingADirectoryWithoutRequestsIsBadInputNamingIt(@TempDir Path tmp) throws IOException {
        var r = CliTest.run("rebuild", tmp.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(tmp.toString()) && r.err().contains("valid: a probe's run directory"), r.err());
        Files.writeString(tmp.resolve("requests.jsonl"), "");
        var noConfig = CliTest.run("rebuild", tmp.toString());
        assertEquals(2, noConfig.code(), noConfig.err());
        assertTrue(noConfig.err().contains("has no config.yaml"), noConfig.err());
    }

    @Test
    void aSummaryRebuiltFromRequestsJsonlEqualsTheOneWrittenAtTheEnd(@TempDir Path tmp) throws IOException {
        for (String chunkTimes : List.of("--chunk-times", "--no-report")) {
            Path out = tmp.resolve("run" + chunkTimes);
            var r = CliTest.run(
                    "probe",
                    "--rate",
                    "6",
                    "--requests",
                    "30",
                    "--warmup-requests",
                    "3",
                    "--osl",
                    "24",
                    "--slo",
                    "ttft:p95<900ms",
                    "--slo",
                    "itl:p99<40ms",
                    chunkTimes,
                    "--out",
                    out.toString());
            assertEquals(0, r.code(), r.err());
            String written = Files.readString(out.resolve("summary.json"));
            String log = Files.readString(out.resolve("histograms.hlog"));
            var rebuilt = CliTest.run("rebuild", out.toString());
            assertEquals(0, rebuilt.code(), rebuilt.err());
            if (chunkTimes.equals("--chunk-times")) {
                // Every metric and every request's goodput, itl included, recomputed from the lines alone.
                assertEquals(written, Files.readString(out.resolve("summary.json")));
                assertTrue(rebuilt.err().contains("itl from every chunk's time"), rebuilt.err());
            } else {
                // Without chunk times, itl comes from the run's histograms.hlog; an itl SLO cannot judge a request.
                JsonNode a = new ObjectMapper().readTree(written);
                JsonNode b =
                        new ObjectMapper().readTree(out.resolve("summary.json").toFile());
                for (String key : List.of("counts", "window_s", "client", "cache", "connections")) {
                    assertEquals(a.path(key), b.path(key), key);
                }
                for (String m :
                        List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms", "isl", "osl", "output_tokens_per_s")) {
                    assertEquals(a.at("/metrics/" + m), b.at("/metrics/" + m), m);
                }
                assertEquals(a.path("slo"), b.path("slo"));
                assertTrue(rebuilt.err().contains("from the run's histograms.hlog"), rebuilt.err());
            }
            assertEquals(log, Files.readString(out.resolve("histograms.hlog")));
        }
    }

    @Test
    void probeAgainstTheEmbeddedSimulatorWritesTheRunDirectory(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("run");
        var r = CliTest.run(
                "probe",
                "--concurrency",
                "4",
                "--requests",
                "12",
                "--warmup-requests",
                "4",
                "--isl",
                "64",
                "--osl",
                "16",
                "--slo",
                "ttft:p95<5s",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("ttft (ms)") && r.out().contains("SLO ttft:p95<5000ms"), r.out());
        assertTrue(r.err().contains("run directory: " + out), r.err());
        for (String f : List.of("summary.json", "requests.jsonl", "config.yaml", "histograms.hlog")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals("headroom.probe/v1", s.get("schema").asText());
        assertEquals(12, s.at("/counts/completed").asInt());
        assertEquals(4, s.at("/counts/warmup").asInt());
        assertEquals(16, s.at("/metrics/osl/p50").asInt());
        assertEquals(64, s.at("/metrics/isl/p50").asInt());
        assertEquals("llama-3.1-8b on h100-sxm x1", s.at("/target/simulator").asText());
        assertTrue(s.get("slo_pass").asBoolean());
        List<String> lines = Files.readAllLines(out.resolve("requests.jsonl"));
        assertEquals(16, lines.size());
        String config = Files.readString(out.resolve("config.yaml"));
        assertTrue(config.contains("seed: 42") && config.contains("concurrency: 4"), config);
    }

    @Test
    void jsonFormatPrintsTheSummaryOnStdout(@TempDir Path tmp) throws IOException {
        var r = CliTest.run(
                "probe",
                "--concurrency",
                "2",
                "--requests",
                "4",
                "--warmup",
                "0s",
                "--isl",
                "32",
                "--osl",
                "8",
                "--format",
                "json",
                "--out",
                tmp.resolve("j").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(r.out());
        assertEquals(4, s.at("/counts/completed").asInt());
    }

    @Test
    void badInputIsNamedAndExitsTwoWithoutARunDirectory(@TempDir Path tmp) {
        Path out = tmp.resolve("never");
        var slo = CliTest.run("probe", "--slo", "ttft<5", "--out", out.toString());
        assertEquals(2, slo.code());
        assertTrue(slo.err().contains("ttft<5"), slo.err());
        var both = CliTest.run("probe", "--concurrency", "2", "--rate", "3", "--out", out.toString());
        assertEquals(2, both.code());
        assertTrue(both.err().contains("mutually exclusive"), both.err());
        var url = CliTest.run("probe", "--url", "ftp://x", "--out", out.toString());
        assertEquals(2, url.code());
        assertTrue(url.err().contains("ftp://x"), url.err());
        var dist = CliTest.run("probe", "--isl-dist", "zipf:3", "--out", out.toString());
        assertEquals(2, dist.code());
        assertFalse(Files.exists(out), "nothing is written for bad input");
    }

    @Test
    void aSessionProbeWritesItsTurnsAndSessionsAndReadsBackTheSame(@TempDir Path tmp) throws IOException {
        Path run = tmp.resolve("chat");
        var r = CliTest.run(
                "probe",
                "--sessions",
                "3",
                "--turns",
                "3",
                "--turn-isl",
                "200",
                "--turn-osl",
                "24",
                "--system-prompt-tokens",
                "300",
                "--think-time",
                "exp:50ms",
                "--requests",
                "18",
                "--warmup",
                "0s",
                "--sim-noise",
                "0",
                "--no-report",
                "--out",
                run.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("load sessions=3 · sessions: 3 turns"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("3 +\\d+ .*%")), "a row for turn 3: " + r.out());
        assertFalse(r.out().contains("though no reuse was asked for"), "a session's reuse is asked for: " + r.out());
        // The server's own counters beside the client's figures (the simulator publishes vLLM's).
        assertTrue(r.out().contains("server's prefix cache (/metrics, warm-up included): "), r.out());
        JsonNode s = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        JsonNode sessions = s.path("sessions");
        assertEquals(3, sessions.at("/spec/turns").asInt());
        assertEquals("exp:0.05s", sessions.at("/spec/think_time").asText());
        assertEquals(3, sessions.path("turns").size());
        long turnRequests = 0;
        for (JsonNode t : sessions.path("turns"))
            turnRequests += t.path("completed").asLong();
        assertEquals(s.at("/counts/completed").asLong(), turnRequests, "every request is one turn's own");
        assertTrue(sessions.at("/counts/completed").asLong() >= 3, sessions.toString());
        // No SLO given: every completed session is good, and goodput in sessions is their rate over the window.
        assertEquals(
                sessions.at("/counts/completed").asLong(),
                sessions.at("/counts/good").asLong());
        double rate =
                sessions.at("/counts/good").asDouble() / s.path("window_s").asDouble();
        // window_s is written to the ms: on a window of a second or two that is a few parts in 10,000.
        assertEquals(rate, sessions.path("goodput_sessions_per_s").asDouble(), 1e-3 * rate + 1e-4);
        // Later turns resend the history: more prompt, more of it cached.
        JsonNode first = sessions.path("turns").get(0),
                last = sessions.path("turns").get(2);
        assertTrue(last.at("/isl/mean").asDouble() > first.at("/isl/mean").asDouble() + 400, sessions.toString());
        assertTrue(last.at("/cache/cached_fraction").asDouble()
                > first.at("/cache/cached_fraction").asDouble());
        for (String line : Files.readAllLines(run.resolve("requests.jsonl"))) {
            JsonNode q = new ObjectMapper().readTree(line);
            assertTrue(q.has("session") && q.has("turn"), line);
        }
        // summary.json read back writes the same bytes, the sessions block included.
        String written = Files.readString(run.resolve("summary.json"));
        var back = dev.headroom.reports.SummaryJson.read(new ObjectMapper().readTree(written));
        assertEquals(written, dev.headroom.reports.SummaryJson.write(back));
    }

    @Test
    void aSessionSloJudgesEachPointOverItsCompletedSessions(@TempDir Path tmp) throws IOException {
        Path run = tmp.resolve("slo");
        var r = CliTest.run(
                "probe",
                "--sessions",
                "2",
                "--turns",
                "2",
                "--turn-isl",
                "64",
                "--turn-osl",
                "16",
                "--requests",
                "12",
                "--warmup",
                "0s",
                "--slo",
                "session:p95<60s",
                "--slo",
                "session:p50<1ms",
                "--no-report",
                "--out",
                run.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        JsonNode slo = s.path("slo");
        assertEquals(2, slo.size(), slo.toString());
        double p95 = s.at("/sessions/duration_s/p95").asDouble() * 1000;
        assertEquals("session", slo.get(0).path("metric").asText());
        assertEquals(60000, slo.get(0).path("threshold").asDouble(), 1e-9);
        assertEquals(p95, slo.get(0).path("observed").asDouble(), 1, "the p95 of the completed sessions' durations");
        assertTrue(slo.get(0).path("pass").asBoolean());
        assertFalse(slo.get(1).path("pass").asBoolean(), "no session lasts under a millisecond");
        assertFalse(s.path("slo_pass").asBoolean());
        assertTrue(s.at("/sessions/counts/completed").asLong() > 0);
        assertEquals(0, s.at("/sessions/counts/good").asLong(), "every session missed session:p50<1ms");
        // Requests carry no session duration: every completed request is good.
        assertEquals(1.0, s.at("/metrics/slo_attainment").asDouble(), 1e-9);
    }

    @Test
    void aSessionTraceReplaysEachSessionsTurnsWhenTheTraceSaysOrWhenTheLastAnswerCame(@TempDir Path tmp)
            throws IOException {
        // Session a: turns at 0, 2.0 and 2.2 s; b: 0.5 and 0.6 s (its first answer comes later than that); c at 1.0 s.
        Path trace = tmp.resolve("sessions.jsonl");
        Files.writeString(trace, """
                {"session_id": "a", "timestamp": 1000, "input_length": 200, "output_length": 20}
                {"session_id": "b", "timestamp": 1500, "input_length": 100, "output_length": 10}
                {"session_id": "a", "timestamp": 3000, "input_length": 50, "output_length": 30}
                {"session_id": "c", "timestamp": 2000, "input_length": 300, "output_length": 5}
                {"session_id": "b", "timestamp": 1600, "input_length": 60, "output_length": 10}
                {"session_id": "a", "timestamp": 3200, "input_length": 40, "output_length": 8}
                """);
        Path run = tmp.resolve("replay");
        var r = CliTest.run(
                "probe", "--trace", trace.toString(), "--warmup", "0s", "--no-report", "--out", run.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("session trace sessions.jsonl (3 sessions, 6 turns)"), r.out());
        double[] start = {0, 0.5, 1.0};
        double[][] due = {{0, 2.0, 2.2}, {0, 0.1}, {0}};
        int[][] osl = {{20, 30, 8}, {10, 10}, {5}};
        java.util.Map<String, Double> ended = new java.util.HashMap<>();
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(run.resolve("requests.jsonl")))
            lines.add(new ObjectMapper().readTree(line));
        assertEquals(6, lines.size());
        lines.sort(
                java.util.Comparator.comparingDouble(q -> q.path("intended_s").asDouble()));
        for (JsonNode q : lines) {
            int session = q.path("session").asInt(), turn = q.path("turn").asInt();
            assertEquals(due[session].length, q.path("session_turns").asInt(), q.toString());
            assertEquals(osl[session][turn], q.path("osl_requested").asInt(), q.toString());
            double scheduled = start[session] + due[session][turn];
            double intended = q.path("intended_s").asDouble();
            assertTrue(intended >= scheduled - 1e-3, "not before the trace's time: " + q);
            if (turn > 0) {
                double previous = ended.get(session + "/" + (turn - 1));
                assertTrue(intended >= previous - 1e-3, "not before the last answer: " + q);
                // Due at the later of the two, up to the client's own scheduling.
                assertTrue(intended <= Math.max(scheduled, previous) + 0.05, q.toString());
            } else {
                assertEquals(scheduled, intended, 1e-6, "a session starts when the trace says");
            }
            ended.put(session + "/" + turn, q.path("end_s").asDouble());
        }
        var think = CliTest.run(
                "probe",
                "--trace",
                trace.toString(),
                "--think-time",
                "1s",
                "--out",
                tmp.resolve("t").toString());
        assertEquals(2, think.code(), think.err());
        assertTrue(think.err().contains("--think-time"), think.err());
        Files.writeString(
                tmp.resolve("mixed.jsonl"),
                "{\"session_id\": 1, \"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}\n"
                        + "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 5}\n");
        var mixed = CliTest.run(
                "probe",
                "--trace",
                tmp.resolve("mixed.jsonl").toString(),
                "--out",
                tmp.resolve("m").toString());
        assertEquals(2, mixed.code(), mixed.err());
        assertTrue(mixed.err().contains("line 2") && mixed.err().contains("session_id"), mixed.err());
    }

    @Test
    void sessionOptionsWithoutSessionsAreBadInputNamingThem(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("never");
        var turns = CliTest.run("probe", "--turns", "3", "--out", out.toString());
        assertEquals(2, turns.code(), turns.err());
        assertTrue(turns.err().contains("--turns needs --sessions or --session-rate"), turns.err());
        var think = CliTest.run("probe", "--think-time", "exp:2s", "--out", out.toString());
        assertEquals(2, think.code(), think.err());
        assertTrue(think.err().contains("exp:2s") && think.err().contains("--sessions"), think.err());
        var virtual =
                CliTest.run("probe", "--sessions", "2", "--virtual", "--tool-calls", "1", "--out", out.toString());
        assertEquals(2, virtual.code(), virtual.err());
        assertTrue(virtual.err().contains("--tool-calls") && virtual.err().contains("--virtual"), virtual.err());
        var both = CliTest.run("probe", "--sessions", "2", "--concurrency", "3", "--out", out.toString());
        assertEquals(2, both.code(), both.err());
        var badThink = CliTest.run("probe", "--sessions", "2", "--think-time", "gauss:1s", "--out", out.toString());
        assertEquals(2, badThink.code(), badThink.err());
        assertTrue(badThink.err().contains("gauss:1s") && badThink.err().contains("exp:MEAN"), badThink.err());
        assertTrue(both.err().startsWith("error: --concurrency=N, --sessions=N are mutually exclusive"), both.err());
        Path chats = tmp.resolve("sharegpt.json");
        Files.writeString(chats, "[{\"conversations\":[{\"from\":\"human\",\"value\":\"hi\"}]}]");
        var replayIsl = CliTest.run(
                "probe", "--sessions", "2", "--dataset", chats.toString(), "--turn-isl", "50", "--out", out.toString());
        assertEquals(2, replayIsl.code(), replayIsl.err());
        assertTrue(
                replayIsl.err().contains("--turn-isl: a replayed conversation's messages are its own"),
                replayIsl.err());
        var sessionSlo = CliTest.run("probe", "--slo", "session:p95<60s", "--out", out.toString());
        assertEquals(2, sessionSlo.code(), sessionSlo.err());
        assertTrue(
                sessionSlo.err().contains("session:p95<60000ms")
                        && sessionSlo.err().contains("--sessions"),
                sessionSlo.err());
        var sweepSlo = CliTest.run("sweep", "--concurrency", "1", "--slo", "session:p95<60s", "--out", out.toString());
        assertEquals(2, sweepSlo.code(), sweepSlo.err());
        for (var res : List.of(turns, think, virtual, badThink, replayIsl, sessionSlo, sweepSlo)) {
            assertEquals(1, res.err().strip().lines().count(), res.err());
        }
        assertFalse(Files.exists(out), "nothing is written for bad input");
    }

    @Test
    void anUnreachableServerIsMeasuredAsConnectFailures(@TempDir Path tmp) throws IOException {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path out = tmp.resolve("down");
        var r = CliTest.run(
                "probe",
                "--url",
                "http://127.0.0.1:" + port,
                "--model",
                "m",
                "--concurrency",
                "1",
                "--requests",
                "3",
                "--warmup",
                "0s",
                "--connect-timeout",
                "1s",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(3, s.at("/counts/failed").asInt());
        assertEquals(3, s.at("/errors/connect").asInt());
    }

    @Test
    void aHeaderWithoutItsColonIsRefusedWithoutEchoingItsValue(@TempDir Path tmp) {
        for (String target : new String[] {"--virtual", "--url=http://127.0.0.1:9"}) {
            var r = CliTest.run(
                    "probe",
                    target,
                    "--model",
                    "m",
                    "--header",
                    "X-Trace:1",
                    "--header",
                    "Authorization Bearer sk-very-secret",
                    "--requests",
                    "1",
                    "--out",
                    tmp.resolve("o").toString());
            assertEquals(2, r.code(), target + ": " + r.err());
            assertTrue(r.err().contains("bad --header #2 (starting 'Authorization')"), r.err());
            assertFalse((r.out() + r.err()).contains("sk-very-secret"), r.err());
            assertFalse((r.out() + r.err()).contains("Bearer"), r.err());
            assertFalse(Files.exists(tmp.resolve("o")), "nothing written");
        }
    }

    @Test
    void aProbeWithoutAnSloSaysSoRatherThanPrintingFullAttainment(@TempDir Path tmp) {
        var none = CliTest.run(
                "probe",
                "--virtual",
                "--requests",
                "20",
                "--no-report",
                "--out",
                tmp.resolve("a").toString());
        assertEquals(0, none.code(), none.err());
        assertTrue(none.out().contains("· no SLO given ·"), none.out());
        assertFalse(none.out().contains("SLO attainment"), none.out());
        var judged = CliTest.run(
                "probe",
                "--virtual",
                "--requests",
                "20",
                "--slo",
                "ttft:p95<10s",
                "--no-report",
                "--out",
                tmp.resolve("b").toString());
        assertEquals(0, judged.code(), judged.err());
        assertTrue(judged.out().contains("SLO attainment 100.0%"), judged.out());
    }
}
