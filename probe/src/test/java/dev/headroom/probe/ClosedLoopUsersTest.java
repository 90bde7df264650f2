package dev.headroom.probe;

import static dev.headroom.probe.VirtualRun.MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The closed loop's users on a virtual clock: when each starts over a ramp, and when it sends again. */
class ClosedLoopUsersTest {

    private static MeasurementRequest closed(int users, Duration think, int requests, Duration ramp) {
        return Points.of(
                new LoadModel.Closed(users),
                think,
                0,
                null,
                requests,
                Duration.ZERO,
                0,
                ramp,
                Duration.ofSeconds(30),
                1);
    }

    /**
     * docs/probe.md: {@code --ramp D} "starts the users evenly over D (closed)": of N users, user u at u·D/N. Then
     * each sends its next request when its last one ends: 4 users, 1 s, 300 ms a request.
     */
    @Test
    void aRampStartsUsersAtEvenOffsetsAndEachSendsAgainWhenItsLastEnds() throws Exception {
        int users = 4;
        long ramp = 1_000 * MS;
        long duration = 300 * MS;
        VirtualRun run = VirtualRun.of(closed(users, Duration.ZERO, 12, Duration.ofNanos(ramp)), duration);
        // User u sends at u·D/N + k·300 ms; no two users ever send at once, so indices follow the send times.
        long[] expected = LongStream.range(0, users)
                .flatMap(u -> LongStream.range(0, 12).map(k -> u * ramp / users + k * duration))
                .sorted()
                .limit(12)
                .toArray();
        assertArrayEquals(expected, run.each(RequestRecord::intendedNanos));
        assertArrayEquals(run.each(RequestRecord::intendedNanos), run.each(RequestRecord::sentNanos));
        assertArrayEquals(LongStream.of(expected).map(t -> t + duration).toArray(), run.each(RequestRecord::endNanos));
        Map<String, Long> firstSend = new TreeMap<>();
        for (ScriptedSender.Send s : run.sends()) firstSend.putIfAbsent(s.thread(), s.sentNanos());
        assertEquals(Map.of("user-0", 0L, "user-1", 250 * MS, "user-2", 500 * MS, "user-3", 750 * MS), firstSend);
        assertEquals(users, run.peakInFlight());
        // Each record names the user that sent it: user u's sends are u·D/N + k·300 ms (no other user's are).
        assertArrayEquals(
                LongStream.range(0, users).toArray(),
                LongStream.of(run.each(RequestRecord::user)).distinct().sorted().toArray());
        long[] user = run.each(RequestRecord::user), sent = run.each(RequestRecord::intendedNanos);
        for (int i = 0; i < user.length; i++) {
            long offset = sent[i] - user[i] * ramp / users;
            assertTrue(offset >= 0 && offset % duration == 0, "user " + user[i] + " sent at " + sent[i] / MS + " ms");
        }
    }

    @Test
    void aLoneUserStartsAtOnceWhateverTheRampAndThinksExactlyItsThinkTime() throws Exception {
        VirtualRun run = VirtualRun.of(closed(1, Duration.ofMillis(200), 5, Duration.ofSeconds(10)), 300 * MS);
        // 300 ms a request, then 200 ms of thought: a send every 500 ms from 0.
        assertArrayEquals(
                LongStream.range(0, 5).map(k -> k * 500 * MS).toArray(), run.each(RequestRecord::intendedNanos));
        assertArrayEquals(run.each(RequestRecord::intendedNanos), run.each(RequestRecord::sentNanos));
        assertEquals(1, run.peakInFlight());
    }
}
