package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsTest {
    private static final long MS = 1_000_000L;

    private static RequestRecord ok(
            long index, long intended, long sent, long[] chunks, int[] tokens, long end, int prompt) {
        return TestRecords.completed(index, intended, sent, chunks, tokens, end, prompt);
    }

    /** Two completed, one failed, one warm-up and one incomplete request, times in ms. */
    private static List<RequestRecord> records() {
        var r0 = ok(0, 0, 0, new long[] {100 * MS, 110 * MS, 130 * MS}, new int[] {1, 1, 2}, 135 * MS, 10);
        var r1 = ok(1, 40 * MS, 50 * MS, new long[] {250 * MS, 300 * MS}, new int[] {1, 1}, 305 * MS, 20);
        var r2 = RequestRecord.failed(2, 60 * MS, 60 * MS, 70 * MS, 5, 10, 503, ErrorKind.HTTP_5XX, "busy");
        var warm = ok(3, -900 * MS, -900 * MS, new long[] {-10 * MS}, new int[] {1}, -5 * MS, 5);
        warm = new RequestRecord(
                3,
                true,
                warm.intendedNanos(),
                warm.sentNanos(),
                warm.firstTokenNanos(),
                warm.endNanos(),
                warm.chunkNanos(),
                warm.chunkTokens(),
                5,
                TokenSource.USAGE,
                1,
                TokenSource.USAGE,
                1,
                200,
                0,
                0,
                RequestRecord.Outcome.COMPLETED,
                null,
                null,
                -1,
                RequestRecord.Connection.UNKNOWN,
                0,
                null,
                -1);
        var cut = new RequestRecord(
                4,
                false,
                280 * MS,
                280 * MS,
                -1,
                900 * MS,
                new long[0],
                new int[0],
                5,
                TokenSource.REQUESTED,
                0,
                TokenSource.COUNTED,
                10,
                200,
                0,
                0,
                RequestRecord.Outcome.INCOMPLETE,
                null,
                null,
                -1,
                RequestRecord.Connection.UNKNOWN,
                0,
                null,
                -1);
        return List.of(r0, r1, r2, warm, cut);
    }

    @Test
    void closedLoopMetricsEqualHandComputedValues() {
        Summary s = Metrics.summarize(records(), false, List.of(Slo.parse("ttft:p95<150ms")));
        assertEquals(new Summary.Counts(2, 1, 1, 1, 0), s.counts());
        // Window: earliest origin (r0 sent at 0) to latest end of a completed or failed request (r1 at 305 ms).
        assertEquals(0.305, s.windowSeconds(), 1e-12);
        assertEquals(6 / 0.305, s.outputTokensPerS(), 1e-9);
        assertEquals(2 / 0.305, s.requestsPerS(), 1e-9);
        assertEquals(36 / 0.305, s.totalTokensPerS(), 1e-9);
        // ttft: r0 100 ms, r1 250 - 50 = 200 ms (closed loop: from the actual send)
        assertEquals(150, s.distribution(Metric.TTFT_MS).mean(), 0.2);
        assertEquals(100, s.distribution(Metric.TTFT_MS).min(), 0.1);
        assertEquals(200, s.distribution(Metric.TTFT_MS).max(), 0.2);
        // e2e: 130 and 250 ms; tpot: 30/3 = 10 and 50/1 = 50 ms
        assertEquals(190, s.distribution(Metric.E2E_MS).mean(), 0.2);
        assertEquals(30, s.distribution(Metric.TPOT_MS).mean(), 0.1);
        // itl pooled: 10/1, 20/2, 50/1 ms
        assertEquals(3, s.distribution(Metric.ITL_MS).count());
        assertEquals(10, s.distribution(Metric.ITL_MS).p50(), 0.02);
        assertEquals(50, s.distribution(Metric.ITL_MS).max(), 0.1);
        assertEquals(15, s.distribution(Metric.ISL).mean(), 1e-9);
        assertEquals(3, s.distribution(Metric.OSL).mean(), 1e-9);
        // error rate 1 of 3 ended; only r0 meets ttft < 150 ms
        assertEquals(1 / 3.0, s.errorRate(), 1e-12);
        assertEquals(Map.of("http_5xx", 1L), s.errors());
        assertEquals(1 / 3.0, s.sloAttainment(), 1e-12);
        assertEquals(1 / 0.305, s.goodputRequestsPerS(), 1e-9);
        assertEquals(4 / 0.305, s.goodputTokensPerS(), 1e-9);
        // Aggregate: ttft p95 is 200 ms, which fails < 150 ms.
        assertFalse(s.sloPass());
        assertEquals(200, s.slo().getFirst().observed(), 0.2);
    }

    @Test
    void aStaleConnectionFailureIsTheClientsAndCountsInNoMetric() {
        var stale = new RequestRecord(
                5,
                false,
                100 * MS,
                100 * MS,
                -1,
                101 * MS,
                new long[0],
                new int[0],
                5,
                TokenSource.REQUESTED,
                0,
                TokenSource.COUNTED,
                10,
                0,
                0,
                0,
                RequestRecord.Outcome.CLIENT_ERROR,
                new RequestRecord.Failure(ErrorKind.STALE_CONNECTION, "unexpected end of stream"),
                null,
                -1,
                RequestRecord.Connection.REUSED,
                0,
                null,
                -1);
        var all = new java.util.ArrayList<>(records());
        all.add(stale);
        Summary with = Metrics.summarize(all, false, List.of(Slo.parse("error_rate<50%")));
        Summary without = Metrics.summarize(records(), false, List.of(Slo.parse("error_rate<50%")));
        assertEquals(new Summary.Counts(2, 1, 1, 1, 1), with.counts());
        assertEquals(without.errorRate(), with.errorRate(), 1e-12);
        assertEquals(without.errors(), with.errors());
        assertEquals(without.windowSeconds(), with.windowSeconds(), 1e-12);
        assertEquals(new Summary.Connections(0, 1, 1), with.connections());
    }

    @Test
    void cachedPromptTokensAreTotalledAndRequestsBeyondATemplatesPrefixAreHits() {
        var small = RequestRecord.completed(
                0, 0, 0, new long[] {10 * MS, 20 * MS}, 21 * MS, 200, TokenSource.USAGE, 2, 0, 16);
        var big = RequestRecord.completed(
                1, 0, 0, new long[] {10 * MS, 20 * MS}, 22 * MS, 200, TokenSource.USAGE, 2, 0, 192);
        var silent =
                RequestRecord.completed(2, 0, 0, new long[] {10 * MS, 20 * MS}, 23 * MS, 200, TokenSource.USAGE, 2, 0);
        Summary s = Metrics.summarize(List.of(small, big, silent), false, List.of());
        assertEquals(new Summary.Cache(2, 400, 208, 1), s.cache());
        assertEquals(0.52, s.cache().cachedFraction(), 1e-12);
    }

    @Test
    void openLoopMeasuresFromTheIntendedSendTime() {
        Summary s = Metrics.summarize(records(), true, List.of());
        // r1 was meant to go at 40 ms and went at 50: its ttft is 210 ms, its ttft_from_send 200 ms.
        assertEquals(210, s.distribution(Metric.TTFT_MS).max(), 0.2);
        assertEquals(200, s.distribution(Metric.TTFT_FROM_SEND_MS).max(), 0.2);
        assertEquals(10, s.distribution(Metric.SEND_LAG_MS).max(), 0.02);
        assertTrue(s.sloPass(), "no SLOs: nothing to fail");
        assertEquals(2 / 3.0, s.sloAttainment(), 1e-12, "with no SLOs every completed request is good");
    }

    @Test
    void perRequestItlSloUsesTheRequestsOwnGaps() {
        // r0 gaps 10, 10 ms; r1 gap 50 ms: itl:p99<20ms keeps r0 only.
        Summary s =
                Metrics.summarize(records(), false, List.of(Slo.parse("itl:p99<20ms"), Slo.parse("error_rate<50%")));
        assertEquals(1 / 3.0, s.sloAttainment(), 1e-12);
        assertEquals(50, s.slo().get(0).observed(), 0.1);
        assertFalse(s.slo().get(0).pass());
        assertTrue(s.slo().get(1).pass());
    }

    @Test
    void sloTextParsesUnitsAndRejectsNonsense() {
        assertEquals(new Slo(SloMetric.TTFT, SloStat.P95, false, 500), Slo.parse("ttft:p95<500ms"));
        assertEquals(new Slo(SloMetric.E2E, SloStat.P99, true, 10_000), Slo.parse("e2e:p99<=10s"));
        assertEquals(new Slo(SloMetric.ITL, SloStat.P999, false, 0.5), Slo.parse("itl:p999<500us"));
        assertEquals(new Slo(SloMetric.ERROR_RATE, null, false, 0.01), Slo.parse("error_rate<1%"));
        assertEquals("ttft:p95<500ms", Slo.parse("TTFT:p95 < 500").text());
        for (String bad : new String[] {"ttft<5ms", "latency:p95<1s", "ttft:p42<1s", "error_rate<lots", ""}) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Slo.parse(bad));
            assertTrue(e.getMessage().contains("ttft:p95<500ms"), e.getMessage());
        }
    }
}
