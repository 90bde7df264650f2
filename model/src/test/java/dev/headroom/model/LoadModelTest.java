package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LoadModelTest {

    @Test
    void closedLoopNeedsAtLeastOneUser() {
        var e = assertThrows(IllegalArgumentException.class, () -> new LoadModel.Closed(0));
        assertTrue(e.getMessage().contains("0"));
        assertEquals("concurrency=8", new LoadModel.Closed(8).label());
    }

    @Test
    void openLoopNeedsAPositiveFiniteRateAndAnArrivalProcess() {
        assertThrows(IllegalArgumentException.class, () -> new LoadModel.Open(0, new ArrivalProcess.Poisson()));
        assertThrows(
                IllegalArgumentException.class, () -> new LoadModel.Open(Double.NaN, new ArrivalProcess.Poisson()));
        assertThrows(
                IllegalArgumentException.class,
                () -> new LoadModel.Open(Double.POSITIVE_INFINITY, new ArrivalProcess.Poisson()));
        assertThrows(IllegalArgumentException.class, () -> new LoadModel.Open(1, null));
        assertEquals("rate=2.5/s gamma:0.5", new LoadModel.Open(2.5, new ArrivalProcess.Gamma(0.5)).label());
    }

    @Test
    void requestRecordDerivesSendLagLastTokenAndLargestGap() {
        var r = RequestRecord.completed(
                0, 1_000, 5_000, new long[] {9_000, 12_000, 20_000}, 20_500, 10, TokenSource.USAGE, 3, 0);
        assertEquals(4_000, r.sendLagNanos());
        assertEquals(20_000, r.lastTokenNanos());
        assertEquals(8_000, r.maxGapNanos());
        assertTrue(r.succeeded());
    }
}
