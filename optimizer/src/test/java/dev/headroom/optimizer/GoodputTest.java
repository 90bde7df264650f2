package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.Slo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A probe's goodput: counted over its window, or in the steady state of a closed loop. */
class GoodputTest {
    private static final List<Slo> SLO = List.of(Slo.parse("ttft:p95<70ms"));

    @Test
    void aClosedLoopsSteadyStateLeavesTheDrainOut() {
        // 4 users on 4 slots, each request 100 ms from its send, TTFT 10 ms: 40 good requests/s.
        List<RequestRecord> full = RunningStreamsTest.closedLoop(4, 4, 200);
        Goodput steady = Goodput.steadyState(full, 4, SLO, Goodput.Unit.REQUESTS);
        assertEquals(40, steady.value(), 0.01);
        // Good requests over the window: from the first send to the last end, which the staggered starts lengthen.
        double window = Goodput.of(full, false, SLO, Goodput.Unit.REQUESTS).value();
        assertTrue(window < steady.value() && window > 39, "window " + window);
        assertTrue(steady.se() >= 0 && steady.se() < 1, "se " + steady.se());
    }

    @Test
    void requestsThatWaitForASlotAndMissTheSloAreNotCounted() {
        // 8 users on 4 slots: past the first four, every request waits 100 ms for a slot (TTFT 110 ms, not good); all
        // 40/s served.
        List<RequestRecord> queued = RunningStreamsTest.closedLoop(8, 4, 400);
        assertEquals(
                0, Goodput.steadyState(queued, 8, SLO, Goodput.Unit.REQUESTS).value(), 0.5);
        assertEquals(
                40,
                Goodput.steadyState(queued, 8, List.of(), Goodput.Unit.REQUESTS).value(),
                0.5,
                "all served");
        assertEquals(
                80,
                Goodput.steadyState(queued, 8, List.of(), Goodput.Unit.TOKENS).value(),
                1,
                "two tokens a request");
    }
}
