package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.MeasuredPoint;
import dev.headroom.model.plan.Range;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed readers of Headroom's own files give back what the writers wrote. */
class ResultReadersTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

    @TempDir
    Path tmp;

    @Test
    void summaryJsonReadBackWritesTheSameFile() throws IOException {
        String golden = Files.readString(GOLDEN.resolve("summary.json"));
        ProbeReport back = ResultFiles.probe(GOLDEN.resolve("summary.json")).report();
        assertEquals(golden, SummaryJson.write(back));
        assertTrue(back.run().load() instanceof LoadModel.Open o && o.ratePerSecond() == 4, "open loop at 4 req/s");
    }

    @Test
    void serverMetricsSurviveTheRoundTrip() throws IOException {
        ProbeReport r = Fixtures.report();
        Map<String, double[]> gauges = new LinkedHashMap<>();
        gauges.put("running", new double[] {3.5, 8});
        gauges.put("kv_cache_usage", new double[] {0.42, 0.9});
        Map<String, Double> counters = new LinkedHashMap<>();
        counters.put("preemptions", 2.0);
        counters.put("prefix_cache_queries", 1000.0);
        counters.put("prefix_cache_hits", 250.0);
        ProbeReport withServer = new ProbeReport(
                r.run(),
                r.summary(),
                r.client(),
                new ServerMetrics("http://127.0.0.1:8000/metrics", 1, 12, 1, 140, gauges, counters),
                r.warnings());
        String text = SummaryJson.write(withServer);
        ProbeReport back = SummaryJson.read(new ObjectMapper().readTree(text));
        assertEquals(text, SummaryJson.write(back));
        assertEquals(0.25, back.server().prefixCacheHitRate());
        assertEquals(2.0, back.server().counters().get("preemptions"));
    }

    @Test
    void importedSummaryKeepsItsSourceAndAnUnboundedRateAsText() throws IOException {
        Path f = tmp.resolve("summary.json");
        Files.writeString(f, """
                {"schema": "headroom.probe/v1", "tool": {"name": "headroom", "version": "t"},
                 "source": {"tool": "vllm", "version": "0.11", "file": "bench.json", "benchmark": "",
                            "notes": ["no per-request data"]},
                 "target": {"model": "m"}, "load": {"mode": "open", "rate": "inf"},
                 "counts": {"completed": 100}, "metrics": {"ttft_ms": {"mean": 41.5, "p99": 80}},
                 "slo": [], "slo_pass": null}
                """);
        ResultFiles.Probe p = ResultFiles.probe(f);
        assertEquals("vllm", p.source().tool());
        assertEquals(List.of("no per-request data"), p.source().notes());
        assertNull(p.report().run().load());
        assertEquals("open loop, inf req/s", p.loadText());
        assertEquals(41.5, p.report().summary().distribution(Metric.TTFT_MS).mean());
        assertTrue(
                Double.isNaN(p.report().summary().distribution(Metric.TTFT_MS).p50()), "absent is NaN, not 0");
        assertEquals(100, p.report().summary().counts().completed());
    }

    @Test
    void sweepPointsReadAsTheirSummariesWithTheSweepsTarget() throws IOException {
        ResultFiles.Sweep s = ResultFiles.sweep(GOLDEN.resolve("sweep.json"));
        assertEquals(List.of("01-rate=4", "02-concurrency=8"), s.dirs());
        assertEquals(2, s.points().size());
        ProbeReport second = s.points().get(1).report();
        assertEquals(new LoadModel.Closed(8), second.run().load());
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", second.run().model());
        ProbeReport fixture = Fixtures.report();
        // Written to the microsecond (3 decimals of a millisecond).
        assertEquals(
                fixture.summary().distribution(Metric.E2E_MS).p95(),
                second.summary().distribution(Metric.E2E_MS).p95(),
                5e-4);
        assertEquals(
                fixture.summary().distribution(Metric.E2E_MS).count(),
                second.summary().distribution(Metric.E2E_MS).count());
        assertEquals(fixture.summary().slo(), second.summary().slo());
        MeasuredPoint m = ResultFiles.point(s.points().get(1));
        assertTrue(m.closedLoop());
        assertEquals(fixture.summary().requestsPerS(), m.requestsPerSecond(), 1e-4);
    }

    @Test
    void planJsonReadsBackItsRowsTotalsAndPolicy() throws IOException {
        Path f = tmp.resolve("plan.json");
        Files.writeString(f, PlanJson.write(ResultSchemasTest.plan(), "test", "2026-11-29T10:00:00Z"));
        PlanJson.Stored p = PlanJson.read(f);
        assertEquals(ResultSchemasTest.plan().rows(), p.months());
        assertEquals(
                List.of(false, true),
                p.capacities().stream().map(PlanJson.StoredCapacity::modelled).toList());
        assertEquals(0.24, p.capacities().get(1).modelError(), 1e-12);
        assertEquals(ResultSchemasTest.plan().totals(), p.totals());
        assertEquals(ResultSchemasTest.plan().policy(), p.policy());
        assertEquals(List.of("h100"), p.options());
        assertEquals("chat", p.classes().getFirst().name());
        assertEquals(1.2, p.classes().getFirst().p90Factor());
        assertTrue(p.ranking().isEmpty());
        assertNull(p.mix());
    }

    @Test
    void compareJsonReadsBackItsRankingAndItsPlan() throws IOException {
        Path f = tmp.resolve("compare.json");
        Comparison c = ResultSchemasTest.comparison();
        Files.writeString(f, PlanJson.write(c, "test", "2026-11-29T10:00:00Z"));
        PlanJson.Stored p = PlanJson.read(f);
        PlanJson.Ranked r = p.ranking().getFirst();
        assertEquals(1, r.rank());
        assertTrue(r.cheapest());
        assertEquals(new Range(17461.6, 15279.4, 21827), r.horizonCost());
        assertEquals(
                List.of(
                        new PlanJson.StoredCapacity(
                                "chat", "h100", LoadUnit.REQUESTS, 2, 1.8, 2.2, false, Double.NaN, "capacities.yaml"),
                        new PlanJson.StoredCapacity(
                                "rag",
                                "h100",
                                LoadUnit.REQUESTS,
                                0.5,
                                0.38,
                                0.62,
                                true,
                                0.24,
                                "stock h100-sxm x1 llama-3.1-8b")),
                r.capacities());
        assertEquals(ResultSchemasTest.plan().rows(), p.months());
        assertEquals(r.capacities(), p.capacities(), "the plan's own capacities read back as the ranking states them");
    }

    @Test
    void requestsJsonlReadsBackEveryFinishedLineAndSkipsAHalfWrittenOne() throws IOException {
        Path f = tmp.resolve("requests.jsonl");
        try (RequestsJsonl log = new RequestsJsonl(f)) {
            Fixtures.records().forEach(log::append);
        }
        Files.writeString(f, Files.readString(f) + "{\"id\": 4, \"phase\": \"meas");
        List<RequestsJsonl.Line> lines = RequestsJsonl.read(f);
        assertEquals(4, lines.size());
        RequestsJsonl.Line first = lines.getFirst();
        assertEquals(0, first.id());
        assertFalse(first.warmup());
        assertEquals(RequestRecord.Outcome.COMPLETED, first.outcome());
        assertEquals(0.001, first.sentS());
        assertEquals(0.1, first.firstTokenS());
        assertEquals(0.125, first.lastTokenS());
        assertEquals(3, first.osl());
        RequestsJsonl.Line failed = lines.get(3);
        assertEquals(RequestRecord.Outcome.FAILED, failed.outcome());
        assertTrue(Double.isNaN(failed.firstTokenS()), "no first token: NaN");
    }

    @Test
    void everyAppendedRecordIsOnDiskBeforeTheLogIsClosed() throws IOException {
        // What a kill -9 leaves: the file as it is while the log is still open.
        Path f = tmp.resolve("requests.jsonl");
        try (RequestsJsonl log = new RequestsJsonl(f)) {
            List<RequestRecord> records = Fixtures.records();
            for (int i = 0; i < records.size(); i++) {
                log.append(records.get(i));
                assertEquals(i + 1, RequestsJsonl.read(f).size(), "record " + i + " not yet in the file");
            }
        }
    }

    @Test
    void serverScrapesSumAGaugeOverItsSeries() throws IOException {
        Path f = tmp.resolve("server_metrics.jsonl");
        Files.writeString(f, """
                {"t_s": 0.5, "samples": {"vllm:num_requests_running{engine=\\"0\\"}": 3, \
                "vllm:num_requests_running{engine=\\"1\\"}": 2, "other": 9}}
                {"t_s": 1.5, "error": "refused"}
                """);
        List<ServerScrapes.Scrape> s = ServerScrapes.read(f);
        assertEquals(2, s.size());
        assertEquals(5, s.getFirst().gauge(ServerMetrics.KNOWN.get("running")));
        assertTrue(Double.isNaN(s.get(1).gauge(ServerMetrics.KNOWN.get("running"))));
    }
}
