package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SloJudgeTest {
    private static final int REQUESTS = 51;

    /** Request i's chunks every 300 + 3i µs from its send at 0: ttft, ttft_from_send, itl, tpot that; e2e 4×. */
    static List<RequestRecord> spread() {
        List<RequestRecord> out = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            long x = (300 + 3L * i) * 1000;
            out.add(RequestRecord.completed(
                    i, 0, 0, new long[] {x, 2 * x, 3 * x, 4 * x}, 4 * x, 10, TokenSource.USAGE, 4, 0));
        }
        return out;
    }

    /** The statistic of metric's values (µs) in {@link #spread}, exact: every value lies below 2,048 µs. */
    static long expectedMicros(SloMetric metric, SloStat stat) {
        double[] v = new double[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) v[i] = (300 + 3 * i) * (metric == SloMetric.E2E ? 4 : 1);
        return Math.round(stat.of(v));
    }

    static final List<SloMetric> REQUEST_LATENCIES =
            List.of(SloMetric.TTFT, SloMetric.TTFT_FROM_SEND, SloMetric.ITL, SloMetric.TPOT, SloMetric.E2E);

    @Test
    void everyLatencyMetricStatisticAndBoundIsJudgedAsWritten() {
        int cases = 0;
        for (SloMetric metric : REQUEST_LATENCIES) {
            for (SloStat stat : SloStat.values()) {
                long at = expectedMicros(metric, stat);
                for (boolean inclusive : new boolean[] {false, true}) {
                    // threshold above the observed value, at it, below it
                    for (long offset : new long[] {1, 0, -1}) {
                        Slo slo = new Slo(metric, stat, inclusive, (at + offset) * 1e-3);
                        boolean expected = offset > 0 || (offset == 0 && inclusive);
                        Summary.SloResult r = Metrics.summarize(spread(), false, List.of(slo))
                                .slo()
                                .getFirst();
                        assertEquals(expected, r.pass(), slo.text() + " on " + at + " µs");
                        assertEquals(at * 1e-3, r.observed(), 1e-12, slo.text());
                        Histogram h = histogramOf(metric);
                        SloJudge.Verdict v = SloJudge.latency(slo, h);
                        assertEquals(expected, v.met(), slo.text());
                        assertEquals(expected, v.margin() < 0, slo.text() + ": margin " + v.margin());
                        cases++;
                    }
                }
            }
        }
        assertEquals(5 * SloStat.values().length * 2 * 3, cases);
    }

    private static Histogram histogramOf(SloMetric metric) {
        Histogram h = SloJudge.histogram();
        for (RequestRecord r : spread()) SloJudge.valuesMicros(metric, r, false, h::recordValue);
        return h;
    }

    @Test
    void everyRateAndBoundIsJudgedOnWholeFailures() {
        for (double threshold : new double[] {0, 0.01, 0.02, 0.5, 1}) {
            for (boolean inclusive : new boolean[] {false, true}) {
                if (threshold == 0 && !inclusive) continue; // refused: never met
                Slo slo = new Slo(SloMetric.ERROR_RATE, null, inclusive, threshold);
                for (int n : new int[] {1, 50, 100, 200}) {
                    for (int failed = 0; failed <= n; failed += Math.max(1, n / 25)) {
                        double rate = (double) failed / n;
                        boolean expected = inclusive ? rate <= threshold : rate < threshold;
                        SloJudge.Verdict v = SloJudge.rate(slo, failed, n);
                        assertEquals(expected, v.met(), slo.text() + " with " + failed + " of " + n);
                        assertEquals(expected, v.margin() < 0, slo.text() + " " + failed + "/" + n);
                        Summary s = Metrics.summarize(withFailures(n, failed), false, List.of(slo));
                        assertEquals(expected, s.sloPass(), slo.text() + " summary, " + failed + " of " + n);
                    }
                }
            }
        }
    }

    private static List<RequestRecord> withFailures(int n, int failed) {
        List<RequestRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(
                    i < failed
                            ? RequestRecord.failed(i, 0, 0, 1_000_000, 10, 4, 500, ErrorKind.HTTP_5XX, "boom")
                            : RequestRecord.completed(
                                    i,
                                    0,
                                    0,
                                    new long[] {1_000_000, 2_000_000},
                                    2_000_000,
                                    10,
                                    TokenSource.USAGE,
                                    2,
                                    0));
        }
        return out;
    }

    @Test
    void noFailuresAtAllIsHalfARequestFromTheBoundary() {
        Slo none = Slo.parse("error_rate<=0%");
        assertEquals(-0.5, SloJudge.rate(none, 0, 200).margin(), 1e-12);
        assertEquals(0.5, SloJudge.rate(none, 1, 200).margin(), 1e-12);
        // 1 %: two failures of 200 pass, three fail; the boundary is 2.5 of 200, relative to the threshold.
        Slo one = Slo.parse("error_rate<=1%");
        assertEquals((2 / 200.0 - 2.5 / 200) / 0.01, SloJudge.rate(one, 2, 200).margin(), 1e-12);
        assertTrue(SloJudge.rate(Slo.parse("error_rate<1%"), 2, 200).margin() > 0);
    }

    @Test
    void nothingMeasuredIsNeverMet() {
        assertFalse(SloJudge.rate(Slo.parse("error_rate<=100%"), 0, 0).met());
        assertFalse(SloJudge.latency(Slo.parse("ttft:p95<10s"), SloJudge.histogram())
                .met());
        assertFalse(Metrics.summarize(List.of(), false, List.of(Slo.parse("error_rate<=0%")))
                .sloPass());
    }

    @Test
    void sloThatCanNeverBeMetOrIsNoRateIsRefused() {
        assertTrue(assertThrows(BadInputException.class, () -> Slo.parse("ttft:p95<0ms"))
                .getMessage()
                .contains("above 0"));
        assertTrue(assertThrows(BadInputException.class, () -> Slo.parse("error_rate<0%"))
                .getMessage()
                .contains("error_rate<=0%"));
        assertTrue(assertThrows(BadInputException.class, () -> Slo.parse("error_rate<=150%"))
                .getMessage()
                .contains("150%"));
    }
}
