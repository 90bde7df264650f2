package dev.headroom.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.DegradedRunException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.model.UserStart;
import dev.headroom.model.WorkerRun;
import dev.headroom.model.Workload;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.WorkloadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerTest {
    private static final Workload WORK = Workload.fixed(10, 8);

    @Test
    void aLoadPointOnAFakeTargetWritesEveryFileAndATypedResult(@TempDir Path tmp) throws IOException {
        Slo slo = Slo.parse("error_rate<=10%");
        MeasurementRequest point =
                new MeasurementRequest(new LoadModel.Closed(4), WORK, RunLength.requests(100), 7, null);
        try (Endpoint fake = Endpoint.of(new FakeServer(10, 8, 20), "fake://server")) {
            ProbeReport r = fake.points(
                            "probe",
                            "2026-12-03T00:00:00Z",
                            point.load(),
                            7,
                            WorkloadSpec.of(WORK),
                            "salt",
                            tmp,
                            List.of(slo))
                    .measure(tmp, point);
            assertEquals(95, r.summary().counts().completed());
            assertEquals(5, r.summary().counts().failed());
            assertEquals(40.0, r.summary().distribution(Metric.TTFT_MS).p50(), 0.1, "10 ms per user, 4 users");
            assertTrue(r.summary().sloPass(), "5 % failed meets error_rate<=10%");
            assertEquals("fake://server", r.run().url());
        }
        for (String f : List.of("config.yaml", "requests.jsonl", "requests.csv", "histograms.hlog", "summary.json")) {
            assertTrue(Files.size(tmp.resolve(f)) > 0, f);
        }
        assertEquals(100, Files.readAllLines(tmp.resolve("requests.jsonl")).size(), "every request kept");
        JsonNode summary =
                new ObjectMapper().readTree(tmp.resolve("summary.json").toFile());
        assertEquals(95, summary.at("/counts/completed").asInt());
        assertTrue(summary.get("slo_pass").asBoolean());
    }

    @Test
    void aClosedLoopGivenNoRampSpreadsItsUsersOverOneCycleFromAPilot(@TempDir Path tmp) throws IOException {
        MeasurementRequest point =
                new MeasurementRequest(new LoadModel.Closed(4), WORK, new RunLength(40, 60, 0, 0, 0.05), 7, null);
        ProbeReport r;
        try (Endpoint fake = Endpoint.of(new FakeServer(10, 8, 0), "fake://server")) {
            r = points(fake, point, tmp).measure(tmp, point, true);
        }
        // The pilot, alone: 10 ms to the first token, 7 gaps of 5 ms: 45 ms; four users: 45 ms × √4 = 90 ms.
        assertEquals(UserStart.How.ONE_CYCLE, r.userStart().how());
        assertEquals(0.090, r.userStart().rampSeconds(), 1e-9);
        assertTrue(r.userStart().basis().contains("0.045 s"), r.userStart().basis());
        assertEquals(
                1,
                Files.readAllLines(tmp.resolve("pilot").resolve("requests.jsonl"))
                        .size(),
                "the pilot kept");
        JsonNode summary =
                new ObjectMapper().readTree(tmp.resolve("summary.json").toFile());
        assertEquals("one_cycle", summary.at("/load/user_start/how").asText());
        assertEquals(0.09, summary.at("/load/user_start/ramp_s").asDouble(), 1e-9);
        // The timed warm-up grows to cover the ramp and one more cycle.
        assertTrue(Files.readString(tmp.resolve("config.yaml")).contains("warmup_s: 0.18"));
    }

    @Test
    void aClosedLoopMeasuredAsGivenSaysItsUsersStartedAtOnce(@TempDir Path tmp) {
        MeasurementRequest point = new MeasurementRequest(new LoadModel.Closed(4), WORK, RunLength.requests(20), 7);
        try (Endpoint fake = Endpoint.of(new FakeServer(10, 8, 0), "fake://server")) {
            ProbeReport r = points(fake, point, tmp).measure(tmp, point, false);
            assertEquals(new UserStart(UserStart.How.AT_ONCE, 0, ""), r.userStart());
            assertTrue(Files.notExists(tmp.resolve("pilot")), "no pilot when not asked to spread");
        }
    }

    @Test
    void aSearchRunsThroughTheRunnerAndFindsTheFakeServersBoundary(@TempDir Path tmp) throws IOException {
        // TTFT is 10 ms per user: 19 users meet ttft:p95<200ms, 20 do not.
        SearchSpec spec = new SearchSpec(
                SearchSpec.Objective.MAX_CONCURRENCY,
                List.of(Slo.parse("ttft:p95<200ms")),
                1,
                256,
                0.05,
                20,
                WORK,
                RunLength.requests(120),
                new ArrivalProcess.Poisson(),
                3);
        List<Integer> seen = new ArrayList<>();
        SearchReport done;
        try (Endpoint fake = Endpoint.of(new FakeServer(10, 8, 0), "fake://server")) {
            Searcher.Result r = new Searcher(fake, spec, WorkloadSpec.of(WORK))
                    .run(
                            () -> tmp,
                            null,
                            "salt",
                            false,
                            null,
                            (sofar, p) -> seen.add(sofar.probes().size()));
            done = r.report();
            assertEquals(0, r.reused());
        }
        assertEquals(19, done.value(), 0, "ci " + done.ciLow() + " .. " + done.ciHigh());
        assertEquals(done.probes().size(), seen.size(), "the listener saw every probe");
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("search.json").toFile());
        assertEquals(done.probes().size(), json.get("probes").size());
        assertTrue(Files.size(tmp.resolve("search.csv")) > 0);
        for (SearchReport.Probe p : done.probes()) {
            assertTrue(Files.isRegularFile(tmp.resolve(p.dir()).resolve("summary.json")), p.dir());
        }
    }

    /** The fake, as if a worker of two had died mid-run: its measurements carry a degraded worker. */
    private static Measurer degraded() {
        FakeServer server = new FakeServer(10, 8, 0);
        return (request, sink) -> {
            Measurement m = server.measure(request, sink);
            var dead = new WorkerRun(1, "http://w1", 3, 0, 0.2, Double.NaN, ClientHealth.Observed.NONE, "died mid-run");
            var alive = new WorkerRun(0, "http://w0", 40, 0, 0.2, 0.01, ClientHealth.Observed.NONE, null);
            return new Measurement(
                    request,
                    List.of(),
                    m.elapsedNanos(),
                    false,
                    m.seed(),
                    new Measurement.Notes(
                            "m", "fixed", "s/0", "kept", 0, ClientHealth.Observed.NONE, List.of(alive, dead)));
        };
    }

    @Test
    void aDegradedPointIsWrittenAndNamedButASearchNeverJudgesIt(@TempDir Path tmp) throws IOException {
        MeasurementRequest point =
                new MeasurementRequest(new LoadModel.Closed(2), WORK, RunLength.requests(20), 7, null);
        try (Endpoint fake = Endpoint.of(degraded(), "fake://server")) {
            ProbeReport r = points(fake, point, tmp).measure(tmp, point);
            assertTrue(r.degraded());
            assertTrue(
                    r.warnings().contains("worker 1 (http://w1): died mid-run"),
                    r.warnings().toString());
            JsonNode w = new ObjectMapper()
                    .readTree(tmp.resolve("summary.json").toFile())
                    .path("workers");
            assertTrue(w.path("degraded").asBoolean());
            assertEquals("died mid-run", w.path("each").path(1).path("problem").asText());
            assertEquals(0.21, w.path("clock_error_max_ms").asDouble(), 1e-9, "the worst clock: 0.2 + |0.01|");
            var e = assertThrows(
                    DegradedRunException.class,
                    () -> points(fake, point, tmp.resolve("s")).run("01-probe", point));
            assertTrue(e.getMessage().contains("died mid-run"), e.getMessage());
        }
    }

    /** The fake's load points for {@code point}, into {@code dir}, with no SLO. */
    private static LoadPoints points(Endpoint fake, MeasurementRequest point, Path dir) {
        return fake.points(
                "probe", "2026-12-03T00:00:00Z", point.load(), 7, WorkloadSpec.of(WORK), "s", dir, List.of());
    }
}
