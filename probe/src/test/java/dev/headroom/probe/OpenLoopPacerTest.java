package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.RequestRecord;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** The open loop's senders: a server slow to answer holds no send back. */
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
}
