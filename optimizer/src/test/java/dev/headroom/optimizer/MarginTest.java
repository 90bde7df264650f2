package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.SloStat;
import dev.headroom.model.TokenSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarginTest {
    private static final long MS = 1_000_000L;

    /** n requests whose TTFTs are 1, 2, ..., n ms, in a seeded random order (as independent requests would be). */
    private static List<RequestRecord> ttfts(int n) {
        List<Integer> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) values.add(i);
        java.util.Collections.shuffle(values, new java.util.Random(n));
        return inOrder(values);
    }

    private static List<RequestRecord> inOrder(List<Integer> ttftMs) {
        List<RequestRecord> out = new ArrayList<>();
        for (int k = 0; k < ttftMs.size(); k++) {
            long i = ttftMs.get(k);
            out.add(RequestRecord.completed(
                    k, 0, 0, new long[] {i * MS, i * MS + 5 * MS}, i * MS + 6 * MS, 10, TokenSource.USAGE, 2, 0));
        }
        return out;
    }

    @Test
    void correlatedNeighboursWidenTheInterval() {
        // The same 400 TTFTs: shuffled, or in runs of ten similar values (a batch of requests that queued together).
        List<Integer> runs = new ArrayList<>();
        java.util.Random r = new java.util.Random(5);
        for (int b = 0; b < 40; b++) {
            int base = r.nextInt(390);
            for (int j = 0; j < 10; j++) runs.add(1 + base + j);
        }
        List<Integer> shuffled = new ArrayList<>(runs);
        java.util.Collections.shuffle(shuffled, new java.util.Random(6));
        Slo slo = Slo.parse("ttft:p90<400ms");
        Margin correlated = Margin.of(slo, inOrder(runs), false);
        Margin independent = Margin.of(slo, inOrder(shuffled), false);
        assertEquals(independent.value(), correlated.value(), 1e-12, "the same values, the same percentile");
        assertTrue(correlated.se() > 2 * independent.se(), correlated.se() + " vs " + independent.se());
    }

    @Test
    void aSessionSloIsJudgedOnCompletedSessionsDurations() {
        // Ten one-turn sessions, one request each, lasting 10, 20, ..., 100 ms; session 10 never completes.
        SessionSpec spec =
                SessionSpec.chat(1, new LengthDistribution.Fixed(10), new LengthDistribution.Fixed(2), null, 0);
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            records.add(RequestRecord.completed(
                            i, 0, 0, new long[] {MS, i * 10 * MS}, i * 10 * MS, 10, TokenSource.USAGE, 2, 0)
                    .withTurn(new SessionTurn(i, 0, 0, 0, 1)));
        }
        records.add(RequestRecord.failed(11, 0, 0, 5 * MS, 10, 2, 500, ErrorKind.HTTP_5XX, "boom")
                .withTurn(new SessionTurn(10, 0, 0, 0, 1)));
        Margin m = Margin.of(Slo.parse("session:p90<100ms"), records, false, spec);
        assertEquals(10, m.samples(), "the ten completed sessions");
        // p90 of 10..100 ms by nearest rank is 90 ms, at summary.json's resolution (3 significant digits)
        assertEquals(-0.1, m.value(), 1e-3);
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> Margin.of(Slo.parse("session:p90<100ms"), records, false));
        assertTrue(e.getMessage().contains("sessions"), e.getMessage());
    }

    @Test
    void percentileMarginIsRelativeToTheThreshold() {
        // p95 of 1..100 ms by nearest rank is 95 ms (to summary.json's 3 significant digits); 5 % inside 100 ms.
        Margin m = Margin.of(Slo.parse("ttft:p95<100ms"), ttfts(100), false);
        assertEquals(-0.05, m.value(), 1e-3);
        assertTrue(m.passing());
        assertEquals(100, m.samples());
    }

    @Test
    void anIntervalClippedAtTheLargestSampleIsNotNarrowerThanItsKnownSide() {
        // 40 TTFTs: 1..36 ms, then 100, 200, 201, 202. The p95 (rank 38) is 200 ms; its interval's upper rank lies past
        // the 40th value, so the clipped width (202 − a value at most 100) would understate it. Its lower side alone
        // spans at least 200 − 100 ms.
        List<Integer> values = new ArrayList<>();
        for (int i = 1; i <= 36; i++) values.add(i);
        values.addAll(List.of(100, 200, 201, 202));
        java.util.Collections.shuffle(values, new java.util.Random(3));
        Margin m = Margin.of(Slo.parse("ttft:p95<100ms"), inOrder(values), false);
        assertEquals(1.0, m.value(), 1e-3);
        assertTrue(m.se() >= 2 * (200 - 100) / (2 * 1.96) / 100, "se " + m.se());
    }

    @Test
    void aPercentileIsResolvedOnceItsIntervalLiesInsideTheSample() {
        assertEquals(72, Margin.samplesToResolve(0.95));
        assertEquals(368, Margin.samplesToResolve(0.99));
        assertEquals(6, Margin.samplesToResolve(0.5));
        // At one sample fewer the 97.5 % rank of Bin(n, 0.95) is past the largest value.
        var bin = new org.apache.commons.math3.distribution.BinomialDistribution(null, 71, 0.95);
        assertTrue(bin.inverseCumulativeProbability(0.975) + 1 > 71);
        assertEquals(1, Margin.samplesToResolve(1.0), "max is never inside: resolved by its own rule");
    }

    @Test
    void theUncertaintyShrinksWithMoreSamples() {
        Margin few = Margin.of(Slo.parse("ttft:p90<500ms"), ttfts(50), false);
        Margin many = Margin.of(Slo.parse("ttft:p90<5000ms"), ttfts(5000), false);
        // Both observe the p90 at 90 % of their range; the interval in rank terms shrinks like 1/sqrt(n).
        assertTrue(many.se() < few.se(), few.se() + " vs " + many.se());
        assertTrue(few.se() > 0);
    }

    @Test
    void errorRateMarginCountsFailures() {
        List<RequestRecord> rs = new ArrayList<>(ttfts(90));
        for (int i = 0; i < 10; i++)
            rs.add(RequestRecord.failed(100 + i, 0, 0, 1, 10, 2, 503, ErrorKind.HTTP_5XX, "x"));
        Margin m = Margin.of(Slo.parse("error_rate<5%"), rs, false);
        // Four failures of 100 pass, five fail: the boundary is 4.5 of 100.
        assertEquals((0.10 - 0.045) / 0.05, m.value(), 1e-9);
        assertTrue(!m.passing());
    }

    @Test
    void theSearchPassesExactlyWhatTheSummaryPassesOnEveryMetricStatisticAndBound() {
        // 51 requests, chunks every 300 + 3i µs (below 2,048 µs: exact in a histogram); e2e is 4 chunks.
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            long x = (300 + 3L * i) * 1000;
            records.add(RequestRecord.completed(
                    i, 0, 0, new long[] {x, 2 * x, 3 * x, 4 * x}, 4 * x, 10, TokenSource.USAGE, 4, 0));
        }
        int agreed = 0;
        for (SloMetric metric : List.of(SloMetric.TTFT, SloMetric.ITL, SloMetric.TPOT, SloMetric.E2E)) {
            for (SloStat stat : SloStat.values()) {
                double[] v = new double[51];
                for (int i = 0; i < 51; i++) v[i] = (300 + 3 * i) * (metric == SloMetric.E2E ? 4 : 1);
                long at = Math.round(stat.of(v));
                for (boolean inclusive : new boolean[] {false, true}) {
                    for (long offset : new long[] {1, 0, -1}) {
                        Slo slo = new Slo(metric, stat, inclusive, (at + offset) * 1e-3);
                        boolean summary =
                                Metrics.summarize(records, false, List.of(slo)).sloPass();
                        assertEquals(offset > 0 || (offset == 0 && inclusive), summary, slo.text());
                        assertEquals(summary, Margin.of(slo, records, false).passing(), slo.text());
                        agreed++;
                    }
                }
            }
        }
        for (String rate : List.of("error_rate<=0%", "error_rate<1%", "error_rate<=1%")) {
            for (int failed = 0; failed <= 3; failed++) {
                // 100 requests, `failed` of them failed
                List<RequestRecord> rs = new ArrayList<>(records.subList(0, 50));
                rs.addAll(records.subList(0, 50 - failed));
                for (int k = 0; k < failed; k++)
                    rs.add(RequestRecord.failed(200 + k, 0, 0, 1, 10, 2, 503, ErrorKind.HTTP_5XX, "x"));
                Slo slo = Slo.parse(rate);
                assertEquals(
                        Metrics.summarize(rs, false, List.of(slo)).sloPass(),
                        Margin.of(slo, rs, false).passing(),
                        rate + " with " + failed + " failures");
                agreed++;
            }
        }
        assertEquals(4 * SloStat.values().length * 6 + 12, agreed);
    }

    @Test
    void noFailuresMeetsAnInclusiveZeroRateWithRoomToSpare() {
        Margin m = Margin.of(Slo.parse("error_rate<=0%"), ttfts(200), false);
        assertTrue(m.passing(), "no failures is error_rate<=0%");
        assertEquals(-0.5, m.value(), 1e-12, "half a request from the boundary, in requests");
        // Binding is the SLO nearest its threshold: here the TTFT, 5 % inside, not the error rate.
        Margin ttft = Margin.of(Slo.parse("ttft:p95<200ms"), ttfts(200), false);
        assertTrue(ttft.value() > m.value());
    }

    @Test
    void noCompletedRequestsIsAFailingMargin() {
        List<RequestRecord> rs = List.of(RequestRecord.failed(0, 0, 0, 1, 10, 2, 503, ErrorKind.HTTP_5XX, "x"));
        assertTrue(!Margin.of(Slo.parse("ttft:p50<1s"), rs, false).passing());
    }
}
