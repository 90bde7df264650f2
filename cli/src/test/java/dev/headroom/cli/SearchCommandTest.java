package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchCommandTest {

    @Test
    void virtualSearchFindsTheBoundaryAndWritesSearchJson(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("s");
        var r = CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("max-concurrency under ttft:p95<300ms:"), r.out());
        assertTrue(r.out().contains("simulated"), r.out());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals("headroom.search/v1", s.get("schema").asText());
        assertTrue(s.at("/result/simulated").asBoolean());
        double lo = s.at("/result/ci_low").asDouble(),
                hi = s.at("/result/ci_high").asDouble();
        assertTrue(lo >= 1 && hi > lo, lo + " .. " + hi);
        assertTrue(s.get("probes").size() <= 20);
        for (JsonNode p : s.get("probes")) {
            // Every probe directory holds what a probe's does.
            for (String f :
                    List.of("summary.json", "requests.jsonl", "requests.csv", "config.yaml", "histograms.hlog")) {
                assertTrue(Files.size(out.resolve(p.get("dir").asText()).resolve(f)) > 0, f + " in " + p.get("dir"));
            }
            String config = Files.readString(out.resolve(p.get("dir").asText()).resolve("config.yaml"));
            assertTrue(
                    config.contains("command: \"search\"")
                            && config.contains("concurrency: " + p.get("load").asInt())
                            && config.contains("ttft:p95<300ms"),
                    config);
            boolean pass = p.get("verdict").asText().equals("pass");
            double margin = p.at("/margins/ttft:p95<300ms/value").asDouble();
            assertEquals(pass, margin < 0, p.toString());
        }
        // The measurements at ci_high, pooled by inverse variance as the search pools them, fail.
        double sw = 0, swv = 0;
        for (JsonNode p : s.get("probes")) {
            if (p.get("load").asDouble() != hi) continue;
            double se = Math.max(1e-6, p.at("/margins/ttft:p95<300ms/se").asDouble());
            sw += 1 / (se * se);
            swv += p.at("/margins/ttft:p95<300ms/value").asDouble() / (se * se);
        }
        assertTrue(sw > 0 && swv / sw >= 0, "pooled margin at ci_high " + swv / sw);
        assertFalse(s.at("/curves/isotonic/ttft:p95<300ms").isEmpty());
        assertFalse(Files.exists(out.resolve("search.json.tmp")), "written atomically");
    }

    @Test
    void aSearchInSessionsCountsSessionsAndRecordsWhatEachDid(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("chat");
        var r = CliTest.run(
                "search",
                "--load-unit",
                "sessions",
                "--turns",
                "2",
                "--turn-isl",
                "64",
                "--turn-osl",
                "16",
                "--slo",
                "e2e:p99<600s",
                "--min",
                "2",
                "--max",
                "4",
                "--max-probes",
                "2",
                "--probe-duration",
                "3s",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("concurrent sessions"), r.out());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals(2, s.at("/workload/sessions/turns").asInt(), s.toString());
        assertTrue(Files.isDirectory(out.resolve("01-sessions=2")), "probe directories say sessions");
        JsonNode probe = new ObjectMapper()
                .readTree(out.resolve("01-sessions=2/summary.json").toFile());
        assertEquals("sessions", probe.at("/load/unit").asText());
        assertTrue(
                probe.at("/sessions/turns/1/completed").asLong() > 0,
                probe.path("sessions").toString());
        // Read back for a resume: the same sessions.
        assertTrue(dev.headroom.reports.SearchJson.read(out.resolve("search.json"))
                        .run()
                        .sessions()
                != null);
        // On the virtual clock too, in seconds; what it does not run (sub-calls) is refused in one line.
        var virtual = CliTest.run(
                "search",
                "--virtual",
                "--load-unit",
                "sessions",
                "--turns",
                "2",
                "--slo",
                "ttft:p95<1s",
                "--max",
                "64",
                "--no-report",
                "--out",
                tmp.resolve("v").toString());
        assertEquals(0, virtual.code(), virtual.err());
        assertTrue(
                virtual.out().contains("concurrent sessions") && virtual.out().contains("simulated"), virtual.out());
        var fanOut = CliTest.run(
                "search",
                "--virtual",
                "--load-unit",
                "sessions",
                "--fan-out",
                "2",
                "--slo",
                "ttft:p95<1s",
                "--out",
                tmp.resolve("f").toString());
        assertEquals(2, fanOut.code(), fanOut.err());
        assertTrue(fanOut.err().contains("--fan-out"), fanOut.err());
        var unit = CliTest.run(
                "search",
                "--load-unit",
                "users",
                "--slo",
                "ttft:p95<1s",
                "--out",
                tmp.resolve("u").toString());
        assertEquals(2, unit.code(), unit.err());
        assertTrue(unit.err().contains("users") && unit.err().contains("requests, sessions"), unit.err());
    }

    @Test
    void aSearchUnderASessionSloFindsTheMostSessionsThatFinishInTime(@TempDir Path tmp) throws IOException {
        // Two slots: at 8 sessions they queue and take longer; at 1 a two-turn session takes some 0.4 s.
        Path out = tmp.resolve("s");
        var r = CliTest.twoSlotSessionSearch(out, "session:p95<600ms");
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals(
                "session:p95<600ms",
                s.at("/result/binding_slo").asText(),
                s.path("result").toString());
        for (JsonNode p : s.get("probes")) {
            JsonNode summary = summaryOf(out, p);
            double p95 = summary.at("/sessions/duration_s/p95").asDouble() * 1000;
            // The probe's verdict is the session SLO's, as its summary judged it.
            boolean pass = p.get("verdict").asText().equals("pass");
            assertEquals(summary.at("/slo/0/pass").asBoolean(), pass, p.toString());
            assertEquals(p95 < 600, pass, p + " p95 " + p95);
            double margin = p.at("/margins/session:p95<600ms/value").asDouble();
            assertEquals(summary.at("/slo/0/observed").asDouble() / 600 - 1, margin, 0.01, p.toString());
        }
        assertTrue(
                s.at("/result/value").asDouble() >= 1 && s.at("/result/ci_high").asDouble() <= 16, s.toString());
    }

    @Test
    void aServerThatStatesItsBatchCapHasItProbedSecond(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("s");
        var r = CliTest.run(
                "search",
                "--virtual",
                "--sim-server",
                "sglang",
                "--sim-max-num-seqs",
                "32",
                "--slo",
                "ttft:p95<2s",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals(1, s.at("/probes/0/load").asInt());
        assertEquals(32, s.at("/probes/1/load").asInt());
        assertTrue(
                r.err().contains("probed 32 second: the server states max_running_requests 32 (GET /server_info"),
                r.err());
    }

    @Test
    void aFullBatchShownByAProbeHasTheCapProbedNextAndNamed(@TempDir Path tmp) throws IOException {
        // vLLM states its KV cache, not its max_num_seqs: the probe at the KV cache's estimate streams only 32 at once.
        Path out = tmp.resolve("s");
        var r = CliTest.run(
                "search",
                "--virtual",
                "--sim-server",
                "vllm",
                "--sim-max-num-seqs",
                "32",
                "--slo",
                "ttft:p95<2s",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("max_running_requests"), "vLLM does not state its cap: " + r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        JsonNode second = s.at("/probes/1");
        assertEquals(32, second.at("/batch/running_streams").asDouble(), 0.5, second.toString());
        assertTrue(second.at("/load").asInt() > 32 * 1.1, second.toString());
        assertEquals(32, s.at("/probes/2/load").asInt(), s.get("probes").toString());
        assertTrue(
                r.err()
                        .contains("probed 32 once a probe of "
                                + second.at("/load").asInt() + " users streamed at most"),
                r.err());
    }

    @Test
    void aSearchNeedsAnSloAndASaneRange() {
        assertEquals(2, CliTest.run("search", "--virtual").code());
        var r = CliTest.run("search", "--virtual", "--slo", "ttft:p95<1s", "--min", "10", "--max", "5");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--min") && r.err().contains("--max"), r.err());
        var o = CliTest.run("search", "--virtual", "--slo", "ttft:p95<1s", "--objective", "fastest");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("fastest"), o.err());
    }

    @Test
    void anInclusiveZeroErrorRateIsMetByNoFailuresAndEveryProbesSummaryAgreesWithTheSearch(@TempDir Path tmp)
            throws IOException {
        Path out = tmp.resolve("z");
        var r = CliTest.run(
                "search", "--virtual", "--slo", "ttft:p95<300ms", "--slo", "error_rate<=0%", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertTrue(s.get("probes").size() > 2, "it searched: " + r.out());
        assertEquals("ttft:p95<300ms", s.at("/result/binding_slo").asText(), s.toString());
        for (JsonNode p : s.get("probes")) {
            JsonNode summary = summaryOf(out, p);
            assertEquals(
                    p.get("verdict").asText().equals("pass"),
                    summary.get("slo_pass").asBoolean(),
                    p.toString());
        }
    }

    @Test
    void aBoundaryAboveTheRangeIsReportedAsSuch(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("a");
        var r = CliTest.run("search", "--virtual", "--slo", "e2e:p99<600s", "--max", "8", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals("above_max", s.at("/result/stop_reason").asText());
    }

    @Test
    void maxGoodputReportsTheArgmaxWithItsPosterior(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("g");
        var r = CliTest.run(
                "search",
                "--virtual",
                "--objective",
                "max-goodput",
                "--slo",
                "ttft:p95<300ms",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(
                r.out().contains("max-goodput under ttft:p95<300ms:")
                        && r.out().contains("good requests/s at concurrency"),
                r.out());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        JsonNode g = s.at("/result/goodput");
        assertEquals("requests", g.get("unit").asText());
        double argmax = s.at("/result/value").asDouble();
        assertTrue(argmax >= 1 && argmax <= 1024, "argmax " + argmax);
        assertTrue(s.at("/result/ci_low").asDouble() <= argmax
                && argmax <= s.at("/result/ci_high").asDouble());
        assertTrue(g.get("sd").asDouble() >= 0);
        // The posterior's best is close to the best probe: the surrogate does not invent goodput it never saw.
        assertEquals(
                g.get("best_observed").asDouble(),
                g.get("mean").asDouble(),
                0.15 * g.get("best_observed").asDouble());
        assertTrue(s.at("/curves/gp/points").size() > 10);
        assertTrue(s.get("probes").size() >= 4 && s.get("probes").size() <= 20);
        String stop = s.at("/result/stop_reason").asText();
        assertTrue(stop.equals("converged") || stop.equals("max_probes"), stop);
        for (JsonNode p : s.get("probes")) {
            assertTrue(p.at("/goodput/value").asDouble() >= 0, p.toString());
            // No probe streams more requests at once than it has users, nor than the simulator's batch cap of 256.
            double running = p.at("/batch/running_streams").asDouble();
            assertTrue(running >= 1 && running <= Math.min(256, p.get("load").asDouble()), p.toString());
        }
        // The simulator states no batch cap, but a probe with more users than it runs at once shows it.
        assertEquals(256, g.get("batch_cap").asDouble(), 1e-9);
        assertEquals("observed", g.get("batch_cap_source").asText());
        assertTrue(r.out().contains("batch cap 256 (observed)"), r.out());
    }

    @Test
    void maxGoodputUnderAnSloNoRequestMeetsStopsAfterItsDesignAndSaysSo(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("none");
        var r = CliTest.run(
                "search",
                "--virtual",
                "--objective",
                "max-goodput",
                "--slo",
                "ttft:p95<5ms",
                "--fail-on-slo",
                "--out",
                out.toString());
        assertEquals(8, r.code(), r.err());
        assertTrue(
                r.out()
                        .contains("max-goodput under ttft:p95<5ms: none: no request met it at any load probed, "
                                + "from 1.00 (the lowest)"),
                r.out());
        assertTrue(r.err().contains("no load from 1 meets the SLO"), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals("below_min", s.at("/result/stop_reason").asText());
        assertTrue(s.get("probes").size() <= 4, s.get("probes").size() + " probes");
    }

    @Test
    void goodputInTokensIsOutputTokensOfGoodRequests(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("t");
        var r = CliTest.run(
                "search",
                "--virtual",
                "--objective",
                "max-goodput",
                "--goodput-unit",
                "tokens",
                "--osl",
                "64",
                "--slo",
                "ttft:p95<300ms",
                "--max-probes",
                "4",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        for (JsonNode p : s.get("probes")) {
            // The search counts a closed loop's goodput in its steady state; the probe's summary.json over its window,
            // drain included, which only lowers it: the same output tokens of good requests, a little higher.
            JsonNode summary = summaryOf(out, p);
            double window = summary.at("/metrics/goodput_tokens_per_s").asDouble();
            double steady = p.at("/goodput/value").asDouble();
            assertTrue(steady >= 0.98 * window && steady <= 1.35 * window + 1e-9, window + " vs " + p);
            // 64 tokens a good request: far above the good requests per second of the same probe.
            assertTrue(
                    steady >= 32 * summary.at("/metrics/goodput_requests_per_s").asDouble(), p.toString());
        }
        assertEquals(
                2,
                CliTest.run(
                                "search",
                                "--virtual",
                                "--objective",
                                "max-goodput",
                                "--goodput-unit",
                                "bytes",
                                "--slo",
                                "ttft:p95<300ms")
                        .code());
    }

    @Test
    void resumeAfterACrashReusesFinishedProbesAndGivesTheSameAnswer(@TempDir Path tmp) throws IOException {
        Path whole = tmp.resolve("whole"), crashed = tmp.resolve("crashed");
        var a = CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--out", whole.toString());
        assertEquals(0, a.code(), a.err());
        // A search that stopped after three probes, then "crashed" in the fourth: search.json lists three finished
        // probes (stop_reason running, as written between probes) and the fourth directory is half written.
        var b = CliTest.run(
                "search", "--virtual", "--slo", "ttft:p95<300ms", "--max-probes", "3", "--out", crashed.toString());
        assertEquals(0, b.code(), b.err());
        Path json = crashed.resolve("search.json");
        Files.writeString(
                json,
                Files.readString(json).replace("\"stop_reason\" : \"max_probes\"", "\"stop_reason\" : \"running\""));
        Path partial = Files.createDirectories(crashed.resolve("04-partial"));
        Files.writeString(partial.resolve("requests.jsonl"), "{\"id\":0,\"phase\":\"meas");
        long firstProbeModified = Files.getLastModifiedTime(crashed.resolve(new ObjectMapper()
                                .readTree(json.toFile())
                                .at("/probes/0/dir")
                                .asText())
                        .resolve("requests.jsonl"))
                .toMillis();

        var c = CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--resume", crashed.toString());
        assertEquals(0, c.code(), c.err());
        assertTrue(c.err().contains("3 finished probe(s) reused"), c.err());
        assertTrue(c.out().contains("(reused)"), c.out());
        JsonNode w = new ObjectMapper().readTree(whole.resolve("search.json").toFile());
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        assertEquals(w.at("/result"), r.at("/result"), "same answer as the uninterrupted search");
        assertEquals(w.get("probes").size(), r.get("probes").size());
        for (int i = 0; i < w.get("probes").size(); i++) {
            assertEquals(w.at("/probes/" + i + "/load"), r.at("/probes/" + i + "/load"));
        }
        assertEquals(
                firstProbeModified,
                Files.getLastModifiedTime(
                                crashed.resolve(r.at("/probes/0/dir").asText()).resolve("requests.jsonl"))
                        .toMillis(),
                "a finished probe is not measured again");
    }

    @Test
    void aMaxRateSearchSoaksEveryProbeAfterItsFirstFailAndAResumedOneSoaksTheSame(@TempDir Path tmp)
            throws IOException {
        Path whole = tmp.resolve("whole"), cut = tmp.resolve("cut");
        var a = CliTest.run(
                "search", "--virtual", "--objective", "max-rate", "--slo", "ttft:p95<300ms", "--out", whole.toString());
        assertEquals(0, a.code(), a.err());
        JsonNode w = new ObjectMapper().readTree(whole.resolve("search.json").toFile());
        int firstFail = -1;
        for (JsonNode p : w.get("probes")) {
            if (firstFail < 0 && p.get("verdict").asText().equals("fail"))
                firstFail = p.get("index").asInt();
        }
        assertTrue(firstFail > 0, w.get("probes").toString());
        int soaks = 0;
        for (String line : a.out().split("\n")) {
            if (!line.startsWith("probe ") || line.contains("drift check")) continue;
            int index = Integer.parseInt(line.substring(6).trim().split("\\s+")[0]);
            boolean soak = line.contains("(soak: 4x as long)");
            assertEquals(index > firstFail, soak, "a soak after the first fail (probe " + firstFail + "): " + line);
            if (soak) soaks++;
        }
        assertTrue(soaks >= 2, a.out());
        int firstSoak = firstFail + 1;

        // Interrupted just before its first soak, then resumed: the soak is measured as a soak, and the answer is the
        // same.
        var b = CliTest.run(
                "search",
                "--virtual",
                "--objective",
                "max-rate",
                "--slo",
                "ttft:p95<300ms",
                "--max-probes",
                String.valueOf(firstSoak - 1),
                "--out",
                cut.toString());
        assertEquals(0, b.code(), b.err());
        Path json = cut.resolve("search.json");
        Files.writeString(
                json,
                Files.readString(json).replace("\"stop_reason\" : \"max_probes\"", "\"stop_reason\" : \"running\""));
        var c = CliTest.run(
                "search",
                "--virtual",
                "--objective",
                "max-rate",
                "--slo",
                "ttft:p95<300ms",
                "--resume",
                cut.toString());
        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().contains("(soak: 4x as long)"), c.out());
        assertEquals(w.at("/result"), new ObjectMapper().readTree(json.toFile()).at("/result"));
    }

    @Test
    void resumeRefusesDifferentSettings(@TempDir Path tmp) {
        Path out = tmp.resolve("s");
        assertEquals(
                0,
                CliTest.run(
                                "search",
                                "--virtual",
                                "--slo",
                                "ttft:p95<300ms",
                                "--max-probes",
                                "2",
                                "--out",
                                out.toString())
                        .code());
        var r = CliTest.run("search", "--virtual", "--slo", "ttft:p95<200ms", "--resume", out.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--slo") && r.err().contains("ttft:p95<300ms"), r.err());
        var m = CliTest.run(
                "search",
                "--virtual",
                "--slo",
                "ttft:p95<300ms",
                "--resume",
                tmp.resolve("none").toString());
        assertEquals(2, m.code());
        assertTrue(m.err().contains("no search.json"), m.err());
    }

    @Test
    void anHttpSearchScrapesTheServersMetricsDuringEachProbe(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("h");
        var r = CliTest.run(
                "search",
                "--slo",
                "ttft:p95<300ms",
                "--max",
                "8",
                "--max-probes",
                "2",
                "--probe-requests",
                "30",
                "--probe-duration",
                "3s",
                "--osl",
                "16",
                "--no-report",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        for (JsonNode p : s.get("probes")) {
            Path dir = out.resolve(p.get("dir").asText());
            assertTrue(Files.size(dir.resolve("server_metrics.jsonl")) > 0, dir.toString());
            JsonNode summary =
                    new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
            assertTrue(
                    summary.at("/server/scrapes").asInt() >= 1,
                    summary.path("server").toString());
        }
    }

    @Test
    void anHttpSearchSendsTheSharedPrefixItIsGiven(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("p");
        var r = CliTest.run(
                "search",
                "--slo",
                "ttft:p95<300ms",
                "--max",
                "8",
                "--max-probes",
                "2",
                "--probe-requests",
                "20",
                "--probe-duration",
                "3s",
                "--osl",
                "8",
                "--shared-prefix",
                "512",
                "--no-report",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        for (JsonNode p : s.get("probes")) {
            JsonNode summary = summaryOf(out, p);
            // The simulator's prefix cache serves the shared 512 tokens to the requests after the first: hits (more
            // than a chat template's worth cached) on most of them, where unique salted prompts alone get none.
            long completed = summary.at("/counts/completed").asLong();
            assertTrue(
                    summary.at("/cache/hits").asLong() >= completed / 2,
                    summary.path("cache").toString());
        }
    }

    /** The summary.json of a search's probe. */
    private static JsonNode summaryOf(Path search, JsonNode probe) throws IOException {
        return new ObjectMapper()
                .readTree(search.resolve(probe.get("dir").asText())
                        .resolve("summary.json")
                        .toFile());
    }

    @Test
    void aServerThatSlowsDuringTheSearchIsReportedAsDriftAndFailsTheDriftGate(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("drift");
        var r = CliTest.run(
                "search",
                "--virtual",
                "--slo",
                "ttft:p95<300ms",
                "--sim-drift",
                "40%",
                "--sim-drift-over",
                "1m",
                "--fail-on-drift",
                "--out",
                out.toString());
        assertEquals(8, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("the server drifted while it was searched"), r.err());
        assertTrue(r.out().contains("drift check (the first passing load again, probe "), r.out());
        JsonNode d =
                new ObjectMapper().readTree(out.resolve("search.json").toFile()).at("/result/drift");
        assertTrue(d.get("detected").asBoolean(), d.toString());
        JsonNode last = d.get("checks").get(d.get("checks").size() - 1);
        assertEquals("end", last.get("trigger").asText());
        assertTrue(last.get("change").asDouble() > 0.05, last.toString());
        // The interval is widened by the change around the one measured.
        JsonNode result =
                new ObjectMapper().readTree(out.resolve("search.json").toFile()).get("result");
        assertTrue(result.get("ci_low").asDouble() < d.get("bracket_low").asDouble(), result.toString());
        assertTrue(result.get("ci_high").asDouble() > d.get("bracket_high").asDouble(), result.toString());
    }

    @Test
    void aStationaryServerIsCheckedForDriftAndFoundSteady(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("steady");
        var r = CliTest.run(
                "search", "--virtual", "--slo", "ttft:p95<300ms", "--fail-on-drift", "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        JsonNode d = s.at("/result/drift");
        assertFalse(d.get("detected").asBoolean(), d.toString());
        // The check is the last probe, at the first passing load, with a directory of its own.
        JsonNode lastProbe = s.get("probes").get(s.get("probes").size() - 1);
        JsonNode check = d.at("/checks/0");
        assertEquals(
                check.get("reference_load").asDouble(), lastProbe.get("load").asDouble());
        assertTrue(
                check.get("reference_load").asDouble() <= s.at("/result/value").asDouble(), check.toString());
        JsonNode first = s.get("probes").get(check.get("reference_probe").asInt() - 1);
        assertEquals("pass", first.get("verdict").asText(), first.toString());
        assertEquals(first.get("load").asDouble(), check.get("reference_load").asDouble());
        assertEquals(lastProbe.get("index").asInt(), check.get("probe").asInt());
        assertTrue(Files.isDirectory(out.resolve(lastProbe.get("dir").asText())), lastProbe.toString());
        assertEquals(d.at("/bracket_low").asDouble(), s.at("/result/ci_low").asDouble());
    }

    @Test
    void noDriftCheckMeansNoDriftProbeAndTheGateNeedsTheCheck(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("unchecked");
        var r = CliTest.run(
                "search", "--virtual", "--slo", "ttft:p95<300ms", "--no-drift-check", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertTrue(s.at("/result/drift").isMissingNode(), s.get("result").toString());
        var refused =
                CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--no-drift-check", "--fail-on-drift");
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("--fail-on-drift needs the drift check"), refused.err());
        var bad = CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--sim-drift", "fast");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("bad --sim-drift 'fast'"), bad.err());
    }
}
