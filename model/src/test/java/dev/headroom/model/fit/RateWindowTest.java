package dev.headroom.model.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BadInputException;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SloStat;
import dev.headroom.model.TestRecords;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateWindowTest {
    private static final long S = 1_000_000_000L;

    /** A request sent at 0 whose chunks arrive at {@code seconds}, carrying {@code tokens}; it ends with the last. */
    private static RequestRecord sentAtZero(long index, int[] tokens, long... seconds) {
        long[] at = Arrays.stream(seconds).map(s -> s * S).toArray();
        return TestRecords.completed(index, 0, 0, at, tokens, at[at.length - 1], 100);
    }

    private static int[] ones(int n) {
        int[] t = new int[n];
        Arrays.fill(t, 1);
        return t;
    }

    private static final List<RequestRecord> RUN = List.of(
            sentAtZero(0, ones(3), 1, 2, 3),
            sentAtZero(1, ones(4), 2, 4, 6, 8),
            sentAtZero(2, ones(8), 3, 4, 5, 6, 7, 8, 9, 10),
            sentAtZero(3, new int[] {1, 5}, 4, 12));

    @Test
    void aWindowedRateCountsTokensAsTheyArriveBetweenTheNthFirstTokenAndTheMthEnd() {
        // From the 2nd first token (2 s) to the 3rd end (10 s): 1 + 3 + 8 + 1 tokens arrive in (2 s, 10 s].
        RateWindow w = new RateWindow(2, 3);
        List<Target> targets = List.of(
                new Target(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN, 1, w),
                new Target(ObservedMetric.REQUESTS_PER_S, SloStat.MEAN, 1, w),
                new Target(ObservedMetric.TOTAL_TOKENS_PER_S, SloStat.MEAN, 1, w),
                new Target(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN, 1));
        double[] v = TargetValues.of(RUN, false, targets);
        assertEquals(13 / 8.0, v[0], 1e-12);
        assertEquals(3 / 8.0, v[1], 1e-12); // ends at 3, 8 and 10 s
        assertEquals((13 + 2 * 100) / 8.0, v[2], 1e-12); // first tokens at 3 and 4 s bring their prompts
        assertEquals(21 / 12.0, v[3], 1e-12); // the whole run: every token over 0..12 s
    }

    @Test
    void aWindowTheRunNeverReachesHasNoValue() {
        double[] v = TargetValues.of(
                RUN,
                false,
                List.of(new Target(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN, 1, new RateWindow(5, 1))));
        assertTrue(Double.isNaN(v[0]));
        // Ending before it starts: the 1st end (3 s) is before the 4th first token (4 s).
        v = TargetValues.of(
                RUN,
                false,
                List.of(new Target(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN, 1, new RateWindow(4, 1))));
        assertTrue(Double.isNaN(v[0]));
    }

    @Test
    void aWindowIsForRatesOnly() {
        assertThrows(
                BadInputException.class, () -> new Target(ObservedMetric.ITL, SloStat.P50, 10, new RateWindow(2, 3)));
        assertThrows(BadInputException.class, () -> new RateWindow(0, 3));
    }
}
