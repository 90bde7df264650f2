package dev.headroom.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.Workload;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.profile.Profiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One load semantics: the same load points through the HTTP driver against the embedded simulator and through the
 * virtual clock send the same workload — the same request ids, the same requested lengths, the same open-loop send
 * schedule, the same warm-up — and measure the same engine within stated tolerances (the HTTP path adds real time:
 * the client, the JSON, the sockets, a shared 2-core machine).
 */
class DriverConformanceTest {
    /** A quiet engine (no noise, no stalls), so the two clocks see the same step costs. */
    private static final EngineConfig ENGINE = EngineConfig.defaults(
                    Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
            .withNoise(0, 0, 0);

    /** The same engine, its answers ending at 24 tokens when a request does not set ignore_eos. */
    private static final EngineConfig EOS_AT_24 =
            ENGINE.toBuilder().eosLength(new LengthDistribution.Fixed(24)).build();

    private static final Workload VARIED =
            new Workload(new LengthDistribution.Normal(200, 40), new LengthDistribution.Uniform(16, 48), true);

    static Stream<Arguments> points() {
        return Stream.of(
                Arguments.of(
                        "closed loop, ramp, warm-up by count",
                        ENGINE,
                        new MeasurementRequest(
                                new LoadModel.Closed(4),
                                VARIED,
                                new RunLength(40, Double.POSITIVE_INFINITY, 4, 0.4),
                                11)),
                Arguments.of(
                        "open loop constant with a ramp",
                        ENGINE,
                        new MeasurementRequest(
                                new LoadModel.Open(8, new ArrivalProcess.Constant()),
                                VARIED,
                                new RunLength(30, Double.POSITIVE_INFINITY, 0, 2),
                                12)),
                Arguments.of(
                        "open loop poisson, warm-up by time",
                        ENGINE,
                        new MeasurementRequest(
                                new LoadModel.Open(6, new ArrivalProcess.Poisson()),
                                VARIED,
                                new RunLength(30, Double.POSITIVE_INFINITY, 0, 0, 1),
                                13)),
                Arguments.of(
                        "open loop gamma",
                        ENGINE,
                        new MeasurementRequest(
                                new LoadModel.Open(6, new ArrivalProcess.Gamma(0.5)),
                                VARIED,
                                RunLength.requests(30),
                                14)),
                Arguments.of(
                        "open loop under a concurrency cap",
                        ENGINE,
                        new MeasurementRequest(
                                new LoadModel.Open(16, new ArrivalProcess.Constant(), 2),
                                VARIED,
                                RunLength.requests(30),
                                16)),
                Arguments.of(
                        "answers ending at EOS",
                        EOS_AT_24,
                        new MeasurementRequest(
                                new LoadModel.Open(6, new ArrivalProcess.Poisson()),
                                new Workload(VARIED.inputTokens(), VARIED.outputTokens(), false),
                                RunLength.requests(30),
                                15)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("points")
    void theHttpDriverAndTheVirtualClockRunTheSameWorkload(
            String name, EngineConfig engine, MeasurementRequest point, @TempDir Path tmp) {
        Run http = run(false, engine, point, tmp.resolve("http"));
        Run virtual = run(true, engine, point, tmp.resolve("virtual"));

        // The same requests: ids, phases and the lengths asked for, one for one.
        assertEquals(ids(virtual), ids(http), "request ids");
        for (int i = 0; i < http.records.size(); i++) {
            RequestRecord h = http.records.get(i), v = virtual.records.get(i);
            assertEquals(v.warmup(), h.warmup(), "warm-up of request " + i);
            assertEquals(v.requestedInputTokens(), h.requestedInputTokens(), "isl asked of request " + i);
            assertEquals(v.requestedOutputTokens(), h.requestedOutputTokens(), "osl asked of request " + i);
            assertEquals(v.completionTokens(), h.completionTokens(), "osl served to request " + i);
            if (!point.workload().ignoreEos()) {
                int asked = h.requestedOutputTokens();
                assertEquals(Math.min(asked, 24), h.completionTokens(), "request " + i + " ends at EOS");
            }
            assertTrue(h.succeeded() && v.succeeded(), "request " + i + " succeeded on both");
            // Open loop: the same schedule, to the microsecond requests.jsonl keeps.
            if (point.openLoop()) {
                assertEquals(v.intendedNanos() / 1000, h.intendedNanos() / 1000, "send time of request " + i);
            }
        }
        if (point.load() instanceof LoadModel.Closed c) {
            // Closed loop: each user's first request at its place in the ramp — on the virtual clock exactly; over
            // HTTP once its prompt is built (client work, never the server's time): within 25 ms after, never before.
            for (int u = 0; u < c.concurrency(); u++) {
                long start = point.length().userStartNanos(u, c.concurrency());
                assertTrue(virtual.records.stream().anyMatch(x -> x.intendedNanos() == start), "virtual user " + u);
                assertTrue(
                        http.records.stream()
                                .anyMatch(x -> x.intendedNanos() >= start && x.intendedNanos() < start + 25_000_000L),
                        "http user " + u + " starts at " + start / 1000 + " µs: "
                                + http.records.stream()
                                        .map(x -> x.intendedNanos() / 1000)
                                        .sorted()
                                        .limit(8)
                                        .toList());
            }
        }
        if (point.maxConcurrency() > 0) {
            // Under a cap both hold arrivals at the client for about as long.
            double v = virtual.records.stream()
                            .mapToLong(RequestRecord::slotWaitNanos)
                            .average()
                            .orElse(0)
                    / 1e6;
            double h = http.records.stream()
                            .mapToLong(RequestRecord::slotWaitNanos)
                            .average()
                            .orElse(0)
                    / 1e6;
            assertTrue(v > 10 && h > 10, "mean slot wait: virtual " + v + " ms, http " + h + " ms");
            assertTrue(Math.abs(v - h) <= Math.max(0.25 * h, 15), "mean slot wait: virtual " + v + ", http " + h);
        }
        assertEquals(virtual.report.summary().counts(), http.report.summary().counts(), "counts");
        // The same engine measured: decode pace within 15 %, TTFT within 25 % or 15 ms, e2e within 15 %.
        within(Metric.TPOT_MS, virtual, http, 0.15, 2);
        within(Metric.TTFT_MS, virtual, http, 0.25, 15);
        within(Metric.E2E_MS, virtual, http, 0.15, 20);
    }

    @Test
    void sessionsRunTheSameTurnsOnBoth(@TempDir Path tmp) {
        SessionSpec chats = new SessionSpec(
                3, new LengthDistribution.Fixed(64), new LengthDistribution.Fixed(16), ThinkTime.NONE, 0, 0, 0, 0);
        MeasurementRequest point = new MeasurementRequest(
                new LoadModel.Closed(2), Workload.fixed(64, 16), RunLength.requests(12), 16, null, chats);
        Run http = run(false, ENGINE, point, tmp.resolve("http"));
        Run virtual = run(true, ENGINE, point, tmp.resolve("virtual"));
        assertEquals(turns(virtual), turns(http), "the same sessions, turns and answer lengths");
        assertEquals(virtual.report.summary().counts(), http.report.summary().counts(), "counts");
        within(Metric.TPOT_MS, virtual, http, 0.15, 2);
    }

    @Test
    void aStopRuleEndsBothAfterTheSameLook(@TempDir Path tmp) {
        MeasurementRequest point = new MeasurementRequest(
                new LoadModel.Open(10, new ArrivalProcess.Constant()),
                VARIED,
                RunLength.requests(200),
                17,
                done -> done.size() >= 20);
        Run http = run(false, ENGINE, point, tmp.resolve("http"));
        Run virtual = run(true, ENGINE, point, tmp.resolve("virtual"));
        // Asked after every 10 finished, the rule ends both at the second look: nothing more is sent, those in flight
        // finish. What was in flight then depends on the clock by a request or two (the HTTP path's real time).
        long h = http.records.size(), v = virtual.records.size();
        assertTrue(v >= 20 && v < 30, "virtual sent " + v);
        assertTrue(Math.abs(h - v) <= 2, "http sent " + h + ", virtual " + v);
        assertEquals(ids(virtual).subList(0, (int) Math.min(h, v)), ids(http).subList(0, (int) Math.min(h, v)));
    }

    /** Each request as (session, turn, answer asked, answer served), sorted. */
    private static List<String> turns(Run r) {
        return r.records.stream()
                .map(x -> x.turn().session() + "/" + x.turn().turn() + " " + x.requestedOutputTokens() + "->"
                        + x.completionTokens())
                .sorted()
                .toList();
    }

    private record Run(ProbeReport report, List<RequestRecord> records) {}

    private static Run run(boolean virtualClock, EngineConfig engine, MeasurementRequest point, Path dir) {
        TargetSettings target = new TargetSettings(
                null,
                virtualClock,
                point.sessions() == null ? "completions" : "chat",
                null,
                "HEADROOM_TEST_NO_KEY",
                null,
                List.of(),
                false,
                "auto",
                null,
                Duration.ofSeconds(1),
                true,
                Duration.ofSeconds(10),
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                null);
        WorkloadSpec work = WorkloadSpec.of(point.workload());
        ProbeReport report;
        try (Endpoint endpoint = target.open(engine, ServerBehaviour.imitating(ServerKind.VLLM))) {
            report = endpoint.points(
                            "probe",
                            "2026-12-03T00:00:00Z",
                            point.load(),
                            point.seed(),
                            work,
                            "conformance",
                            dir,
                            List.of())
                    .measure(dir, point);
        }
        List<RequestRecord> records = new ArrayList<>();
        RequestsJsonl.records(dir.resolve("requests.jsonl"), r -> records.add(r.record()));
        records.sort(Comparator.comparingLong(RequestRecord::index));
        return new Run(report, records);
    }

    private static List<Long> ids(Run r) {
        return r.records.stream().map(RequestRecord::index).toList();
    }

    private static void within(Metric metric, Run virtual, Run http, double relative, double absoluteMs) {
        double v = virtual.report.summary().distribution(metric).p50();
        double h = http.report.summary().distribution(metric).p50();
        assertTrue(
                Math.abs(h - v) <= Math.max(relative * v, absoluteMs),
                metric.key() + " p50: http " + h + " ms, virtual " + v + " ms");
    }
}
