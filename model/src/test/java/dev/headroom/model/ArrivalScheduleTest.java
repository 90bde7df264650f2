package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {
    private static final LoadModel.Open TEN_A_SECOND = new LoadModel.Open(10, new ArrivalProcess.Constant());

    @Test
    void withoutARampTheSendsAreTheArrivalProcessesOwn() {
        ArrivalSchedule s = new ArrivalSchedule(TEN_A_SECOND, RunLength.requests(5), 1);
        for (int i = 0; i < 5; i++) assertEquals(i * 100_000_000L, s.nextNanos());
    }

    @Test
    void aRampRaisesTheRateLinearlySoArrivalsSoFarGrowWithTheSquareOfTime() {
        double ramp = 4;
        ArrivalSchedule s = new ArrivalSchedule(TEN_A_SECOND, new RunLength(100, Double.POSITIVE_INFINITY, 0, ramp), 1);
        // A rate rising linearly to 10/s over 4 s has sent 10·t²/8 by t: the k-th send (from 0) is at sqrt(0.8·k).
        for (int k = 0; k < 20; k++) assertEquals(Math.sqrt(0.8 * k), s.nextNanos() / 1e9, 1e-9, "send " + k);
        // After the ramp (20 sends, the last at 4 s) the full rate: 0.1 s apart, each 2 s later than without a ramp.
        for (int k = 20; k < 30; k++) assertEquals(k * 0.1 + ramp / 2, s.nextNanos() / 1e9, 1e-9, "send " + k);
    }

    @Test
    void aReplayThatEndsEndsTheSchedule() {
        ArrivalSchedule s = new ArrivalSchedule(
                new LoadModel.Open(2, new ArrivalProcess.Replay(new double[] {0, 0.5})), RunLength.requests(10), 1);
        assertEquals(0, s.nextNanos());
        assertEquals(500_000_000L, s.nextNanos());
        assertEquals(-1, s.nextNanos());
    }
}
