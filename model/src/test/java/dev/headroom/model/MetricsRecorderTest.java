package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsRecorderTest {
    private static final List<Slo> SLOS = List.of(Slo.parse("ttft:p95<300ms"), Slo.parse("itl:p99<8ms"));

    /** Requests whose gaps grow with their index, so that some fail the itl SLO and some do not. */
    private static List<RequestRecord> records(int n) {
        List<RequestRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long sent = i * 50_000_000L;
            long[] t = new long[20];
            for (int k = 0; k < t.length; k++)
                t[k] = sent + 100_000_000L + i * 3_000_000L + k * (5_000_000L + i * 100_000L);
            out.add(RequestRecord.completed(
                    i, sent, sent + 123_456, t, t[t.length - 1] + 1000, 100, TokenSource.USAGE, 20, 0));
        }
        return out;
    }

    @Test
    void aRecorderFedOneByOneGivesTheSummaryOfAllItsRecords() {
        List<RequestRecord> all = records(120);
        MetricsRecorder m = new MetricsRecorder(true, SLOS);
        for (RequestRecord r : all.reversed()) m.accept(r); // order does not matter
        Summary streamed = m.summary();
        Summary batch = Metrics.summarize(all, true, SLOS);
        assertEquals(batch.distributions(), streamed.distributions());
        assertEquals(batch.counts(), streamed.counts());
        assertEquals(batch.goodputRequestsPerS(), streamed.goodputRequestsPerS());
        assertEquals(batch.slo(), streamed.slo());
        assertEquals(all.size() * 19L, streamed.distribution(Metric.ITL_MS).count());
    }

    @Test
    void aSnapshotMidRunCountsOnlyWhatFinishedAndLeavesTheRecorderRunning() {
        List<RequestRecord> all = records(40);
        MetricsRecorder m = new MetricsRecorder(false, SLOS);
        all.subList(0, 10).forEach(m);
        assertEquals(10, m.summary().counts().completed());
        all.subList(10, 40).forEach(m);
        assertEquals(40, m.summary().counts().completed());
        assertEquals(
                Metrics.summarize(all, false, SLOS).distributions(), m.summary().distributions());
    }

    @Test
    void aRecordWithoutItsChunkTimesAddsNoGapAndIsNotJudgedOnItl() {
        List<RequestRecord> all = records(60);
        MetricsRecorder without = new MetricsRecorder(true, SLOS);
        all.forEach(r -> without.accept(r, false));
        Summary s = without.summary();
        assertEquals(0, s.distribution(Metric.ITL_MS).count());
        // Judged on ttft alone: more requests are good than when itl judges them too.
        MetricsRecorder ttftOnly = new MetricsRecorder(true, List.of(SLOS.getFirst()));
        all.forEach(ttftOnly);
        assertEquals(ttftOnly.summary().goodputRequestsPerS(), s.goodputRequestsPerS());
        double judged = Metrics.summarize(all, true, SLOS).goodputRequestsPerS();
        assertEquals(true, judged < s.goodputRequestsPerS(), judged + " vs " + s.goodputRequestsPerS());
    }

    @Test
    void metricsAreInWholeMicrosecondsSoTimesRoundedToThemGiveTheSameSummary() {
        List<RequestRecord> all = records(30);
        List<RequestRecord> rounded = new ArrayList<>();
        for (RequestRecord r : all) {
            long[] t = r.chunkNanos().clone();
            for (int k = 0; k < t.length; k++) t[k] = Metrics.micros(t[k]) * 1000;
            rounded.add(RequestRecord.completed(
                    r.index(),
                    Metrics.micros(r.intendedNanos()) * 1000,
                    Metrics.micros(r.sentNanos()) * 1000,
                    t,
                    Metrics.micros(r.endNanos()) * 1000,
                    100,
                    TokenSource.USAGE,
                    20,
                    0));
        }
        Summary a = Metrics.summarize(all, true, SLOS), b = Metrics.summarize(rounded, true, SLOS);
        assertEquals(a.distributions(), b.distributions());
        assertEquals(a.windowSeconds(), b.windowSeconds());
        assertEquals(a.goodputRequestsPerS(), b.goodputRequestsPerS());
    }

    @Test
    void aRecordWithoutItsChunkTimesKeepsEveryMetricButItl() {
        List<RequestRecord> all = records(50);
        List<Slo> noItl = List.of(SLOS.getFirst(), Slo.parse("tpot:p90<9ms"), Slo.parse("e2e:p99<1s"));
        Summary full = Metrics.summarize(all, true, noItl);
        Summary compact = Metrics.summarize(
                all.stream().map(RequestRecord::withoutChunkTimes).toList(), true, noItl);
        for (Metric k : Metric.values()) {
            if (k != Metric.ITL_MS) assertEquals(full.distribution(k), compact.distribution(k), k.key());
        }
        assertEquals(full.goodputRequestsPerS(), compact.goodputRequestsPerS());
        assertEquals(full.windowSeconds(), compact.windowSeconds());
        assertEquals(2, all.getFirst().withoutChunkTimes().chunkNanos().length);
        assertEquals(
                20,
                java.util.Arrays.stream(all.getFirst().withoutChunkTimes().chunkTokens())
                        .sum());
    }

    @Test
    void theTimeSeriesHasEachRequestInTheIntervalItEndedInAndAddsUpToTheRun() {
        // One request every 0.5 s for 60 s: twelve 10-s intervals... six, of ~20 requests each; later intervals are
        // packed as the run goes on, and a late record for an early interval is still counted where it belongs.
        List<RequestRecord> all = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            long sent = i * 500_000_000L;
            long[] t = {sent + 50_000_000L, sent + 60_000_000L, sent + 75_000_000L};
            all.add(RequestRecord.completed(i, sent, sent, t, t[2] + 1000, 10, TokenSource.USAGE, 3, 0));
        }
        MetricsRecorder m = new MetricsRecorder(false, List.of());
        all.subList(1, all.size()).forEach(m);
        m.accept(all.getFirst()); // ended in the first interval, counted after the last
        List<MetricsRecorder.Interval> series = m.intervals();
        assertEquals(6, series.size());
        assertEquals(0, series.getFirst().startMicros());
        assertEquals(MetricsRecorder.INTERVAL_MICROS, series.getFirst().endMicros());
        assertEquals(20, series.getFirst().histograms().get(Metric.TTFT_MS).getTotalCount());
        Summary s = m.summary();
        for (Metric key : Metric.SERIES) {
            long total = series.stream()
                    .mapToLong(iv -> iv.histograms().get(key).getTotalCount())
                    .sum();
            assertEquals(s.distribution(key).count(), total, key.key());
        }
        assertEquals(50_000, series.get(3).histograms().get(Metric.TTFT_MS).getValueAtPercentile(50), 100);
        assertEquals(240, s.distribution(Metric.ITL_MS).count());
    }
}
