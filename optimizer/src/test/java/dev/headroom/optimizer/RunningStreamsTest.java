package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.Slo;
import dev.headroom.model.TokenSource;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/** What a probe's records show of the server's batch: the streams it ran at once, and the room to queue. */
class RunningStreamsTest {
    private static final long MS = 1_000_000;

    /**
     * A closed loop of {@code users} on a server that runs {@code slots} requests at once, first come first served:
     * each request streams from 10 ms after it gets a slot until 100 ms after, and its user sends again at its end.
     */
    static List<RequestRecord> closedLoop(int users, int slots, int requests) {
        PriorityQueue<Long> free = new PriorityQueue<>();
        for (int s = 0; s < slots; s++) free.add(0L);
        PriorityQueue<long[]> sends = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0])); // {time, user}
        for (int u = 0; u < users; u++) sends.add(new long[] {u * MS, u});
        List<RequestRecord> out = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            long[] send = sends.poll();
            long start = Math.max(send[0], free.poll());
            long first = start + 10 * MS, end = start + 100 * MS;
            free.add(end);
            out.add(RequestRecord.completed(
                    i, send[0], send[0], new long[] {first, end}, end, 10, TokenSource.USAGE, 2, 0));
            sends.add(new long[] {end, send[1]});
        }
        return out;
    }

    @Test
    void aFullBatchReadsItsCap() {
        assertEquals(4, RunningStreams.level(closedLoop(10, 4, 400)));
        assertEquals(16, RunningStreams.level(closedLoop(40, 16, 800)));
    }

    @Test
    void theFillIsTheStreamsOverTheShareOfTheCycleSpentStreaming() {
        // Each request streams 90 ms of its 100-ms cycle: 4 slots stay busy streaming with 4 × 100 / 90 users.
        List<RequestRecord> records = closedLoop(4, 4, 400);
        assertEquals(4 * 100 / 90.0, RunningStreams.fillUsers(records, RunningStreams.level(records)), 1e-9);
        assertTrue(Double.isNaN(RunningStreams.fillUsers(List.of(), 4)));
    }

    @Test
    void belowTheCapEveryUserStreams() {
        assertEquals(3, RunningStreams.level(closedLoop(3, 4, 300)));
    }

    @Test
    void tooFewStreamsReadNothing() {
        assertTrue(Double.isNaN(RunningStreams.level(closedLoop(1, 4, 1))));
    }

    @Test
    void queueRoomCountsTheUsersWhoseWaitTheSloCanAbsorb() {
        // 4 users, each request 100 ms from send to end: the batch serves 40 requests/s, a user waiting ahead adds
        // 25 ms. TTFT 10 ms under an SLO of 70 ms: two more users (60 ms) keep every request good, three (85) do not.
        List<RequestRecord> records = closedLoop(4, 4, 200);
        assertEquals(2, Goodput.queueRoom(records, 4, List.of(Slo.parse("ttft:p95<70ms"))));
        assertEquals(0, Goodput.queueRoom(records, 4, List.of(Slo.parse("ttft:p95<30ms"))));
        // No request good: no room, whatever the wait.
        assertEquals(0, Goodput.queueRoom(records, 4, List.of(Slo.parse("ttft:p95<5ms"))));
        // A TPOT target does not include the wait: room without end (the search's bound, 2^20).
        assertTrue(Goodput.queueRoom(records, 4, List.of(Slo.parse("tpot:p95<200ms"))) > 1000);
    }
}
