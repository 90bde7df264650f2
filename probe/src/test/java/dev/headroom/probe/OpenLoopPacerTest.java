package dev.headroom.probe;

import static dev.headroom.probe.VirtualRun.MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The open loop's senders: a server slow to answer holds no send back, on the real clock against a real server and,
 * exactly, on a virtual clock against a scripted one; under a concurrency cap a send waits exactly for a free slot.
 */
class OpenLoopPacerTest {
    private static final String BODY = event("a", "null") + event("b", "\"length\"") + "data: [DONE]\n\n";

    private static String event(String text, String finish) {
        return "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text
                + "\"},\"finish_reason\":" + finish + "}]}\n\n";
    }

    @Test
    void aServerThatSendsItsHeadersLateHoldsNoSendBack() throws IOException {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    // Headers only after 400 ms, as a server that answers when its first token is ready: every sender
                    // is busy with one response, so most requests must leave without one, and on time.
                    return new MockResponse.Builder()
                            .setHeader("Content-Type", "text/event-stream")
                            .headersDelay(400, TimeUnit.MILLISECONDS)
                            .body(BODY)
                            .build();
                }
            });
            server.start();
            Target t = new Target(
                    URI.create(server.url("/v1").toString()),
                    Api.CHAT,
                    "m",
                    null,
                    Map.of(),
                    false,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(10),
                    KeepAlive.ON);
            var plan = Points.of(
                    new LoadModel.Open(40, new ArrivalProcess.Constant()),
                    Duration.ZERO,
                    0,
                    null,
                    60,
                    Duration.ZERO,
                    0,
                    Duration.ZERO,
                    Duration.ofSeconds(10),
                    3);
            var workload = new WorkloadSpec(new LengthDistribution.Fixed(10), new LengthDistribution.Fixed(2), true, 0);
            List<RequestRecord> rs = new Probe(t).run(workload, plan, r -> {}).records();
            assertEquals(60, rs.stream().filter(RequestRecord::succeeded).count(), rs.toString());
            long[] lagMs = rs.stream()
                    .mapToLong(r -> r.sendLagNanos() / 1_000_000)
                    .sorted()
                    .toArray();
            // 60 sends over 1.5 s, 16 at a time waiting 400 ms for headers: queued behind 4 senders they would leave
            // up to seconds late.
            assertTrue(lagMs[lagMs.length - 1] < 100, "send lag ms " + Arrays.toString(lagMs));
            assertTrue(
                    rs.stream().allMatch(r -> r.firstTokenNanos() - r.sentNanos() >= 390_000_000L),
                    "the headers' delay is the server's time, after the send");
        }
    }

    private static MeasurementRequest open(double rate, int requests, int maxConcurrency) {
        return Points.of(
                new LoadModel.Open(rate, new ArrivalProcess.Constant()),
                Duration.ZERO,
                maxConcurrency,
                null,
                requests,
                Duration.ZERO,
                0,
                Duration.ZERO,
                Duration.ofSeconds(10),
                3);
    }

    @Test
    void lateHeadersHoldNoSendBackOnAVirtualClock() throws Exception {
        // The real-clock test's load: 60 sends 25 ms apart, each one's headers 410 ms later, so 16 or 17 wait at once.
        VirtualRun run = VirtualRun.of(open(40, 60, 0), i -> 410 * MS, i -> 440 * MS);
        List<RequestRecord> rs = run.records();
        assertEquals(60, rs.stream().filter(RequestRecord::succeeded).count());
        assertArrayEquals(LongStream.range(0, 60).map(i -> i * 25 * MS).toArray(), run.each(RequestRecord::sentNanos));
        assertTrue(rs.stream().allMatch(r -> r.sendLagNanos() == 0), "every send at its slot");
        assertTrue(
                rs.stream().allMatch(r -> r.firstTokenNanos() - r.sentNanos() == 410 * MS), "headers after the send");
        assertEquals(18, run.peakInFlight(), "440 ms each at 40/s: 18 in flight at once");
        // Four platform senders in production (threads "sender-N"): the rest left from virtual threads meanwhile.
        assertTrue(run.sends().stream().anyMatch(s -> !s.thread().startsWith("sender-")), "no sender was free");
    }

    /**
     * A cap of 2 at 10/s, each request 230 ms: request 2, due at 200 ms, gets request 0's slot at 230; 3 gets 1's at
     * 330; 4 gets 2's at 460; 5 gets 3's at 560 — each wait counted from its slot.
     */
    @Test
    void aConcurrencyCapDelaysSendsByExactlyTheWaitForASlot() throws Exception {
        VirtualRun run = VirtualRun.of(open(10, 6, 2), 230 * MS);
        assertArrayEquals(ms(0, 100, 200, 300, 400, 500), run.each(RequestRecord::intendedNanos));
        assertArrayEquals(ms(0, 100, 230, 330, 460, 560), run.each(RequestRecord::sentNanos));
        assertArrayEquals(ms(0, 0, 30, 30, 60, 60), run.each(RequestRecord::slotWaitNanos));
        assertArrayEquals(ms(230, 330, 460, 560, 690, 790), run.each(RequestRecord::endNanos));
        assertEquals(2, run.peakInFlight());
    }

    private static long[] ms(long... millis) {
        return LongStream.of(millis).map(m -> m * MS).toArray();
    }
}
