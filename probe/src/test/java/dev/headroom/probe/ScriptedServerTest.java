package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The probe against scripted servers that send what real servers send, not only what the simulator sends. */
class ScriptedServerTest {
    private MockWebServer server;
    private final ConcurrentLinkedQueue<MockResponse> script = new ConcurrentLinkedQueue<>();
    private final AtomicInteger generationRequests = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (!request.getUrl().encodedPath().endsWith("/completions")) {
                    return new MockResponse.Builder()
                            .code(404)
                            .body("{\"detail\":\"Not Found\"}")
                            .build();
                }
                generationRequests.incrementAndGet();
                MockResponse next = script.poll();
                return next != null
                        ? next
                        : new MockResponse.Builder()
                                .code(500)
                                .body("script exhausted")
                                .build();
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String sse(String... events) {
        StringBuilder b = new StringBuilder();
        for (String e : events) b.append(e.startsWith(":") ? e + "\n\n" : "data: " + e + "\n\n");
        return b.toString();
    }

    private static MockResponse stream(String body) {
        return new MockResponse.Builder()
                .setHeader("Content-Type", "text/event-stream")
                .body(body)
                .build();
    }

    private static String chunk(String content, String finish) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
                + content + "\"},\"finish_reason\":" + (finish == null ? "null" : "\"" + finish + "\"") + "}]}";
    }

    /** Runs against the script with keep-alive on and no preflight, so every scripted response meets a record. */
    private List<RequestRecord> run(int requests) {
        return run(server, KeepAlive.ON, 1, requests, Duration.ZERO).records();
    }

    private static ProbeResult run(MockWebServer on, KeepAlive keepAlive, int users, int requests, Duration warmup) {
        Target t = new Target(
                URI.create(on.url("/v1").toString()),
                Api.CHAT,
                "m",
                "sk-secret",
                Map.of(),
                false,
                Duration.ofSeconds(2),
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                keepAlive);
        var plan = Points.of(
                new LoadModel.Closed(users),
                Duration.ZERO,
                0,
                null,
                requests,
                warmup,
                0,
                Duration.ZERO,
                Duration.ofSeconds(5),
                1);
        var workload = new WorkloadSpec(new LengthDistribution.Fixed(10), new LengthDistribution.Fixed(3), true, 0);
        return new Probe(t).run(workload, plan, r -> {});
    }

    /** A server that answers every generation with a short stream and closes each connection after its response. */
    private static MockWebServer closingAfterEveryResponse(AtomicInteger generations) throws IOException {
        return closingAfterEveryResponse(generations, false);
    }

    /** As above; {@code announce}: saying so with {@code Connection: close}. */
    private static MockWebServer closingAfterEveryResponse(AtomicInteger generations, boolean announce)
            throws IOException {
        MockWebServer s = new MockWebServer();
        s.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                MockResponse.Builder b =
                        new MockResponse.Builder().onResponseEnd(SocketEffect.ShutdownConnection.INSTANCE);
                if (announce) b.setHeader("Connection", "close");
                if (!request.getUrl().encodedPath().endsWith("/completions")) {
                    return b.setHeader("Content-Type", "application/json")
                            .body("{\"data\":[{\"id\":\"m\"}]}")
                            .build();
                }
                generations.incrementAndGet();
                return b.setHeader("Content-Type", "text/event-stream")
                        .body(sse(chunk("a", null), chunk("b", null), chunk("c", "length"), "[DONE]"))
                        .build();
            }
        });
        s.start();
        return s;
    }

    @Test
    void aRequestOnAConnectionTheServerClosedAfterItsResponseIsTheClientsErrorNotTheServers() throws IOException {
        AtomicInteger generations = new AtomicInteger();
        try (MockWebServer closing = closingAfterEveryResponse(generations)) {
            ProbeResult r = run(closing, KeepAlive.ON, 1, 8, Duration.ZERO);
            List<RequestRecord> stale = r.records().stream()
                    .filter(x -> x.outcome() == RequestRecord.Outcome.CLIENT_ERROR)
                    .toList();
            assertTrue(
                    !stale.isEmpty(), "keep-alive on, nothing learned: a reused connection meets the server's close");
            for (RequestRecord x : stale) {
                assertEquals(ErrorKind.STALE_CONNECTION, x.failure().kind());
                assertEquals(RequestRecord.Connection.REUSED, x.connection());
            }
            assertTrue(r.records().stream().noneMatch(RequestRecord::failed), "no failure is the server's");
            var summary = dev.headroom.model.Metrics.summarize(
                    r.records(), false, List.of(dev.headroom.model.Slo.parse("error_rate<1%")));
            assertEquals(0, summary.errorRate(), "the client's race is never in the error rate");
            assertEquals(stale.size(), summary.counts().clientErrors());
            assertEquals(
                    8 - stale.size(), generations.get(), "a stale request never reached the server and is not resent");
        }
    }

    @Test
    void aReusedConnectionThatBreaksLongAfterTheSendIsTheServersResetNotTheClientsRace() throws IOException {
        AtomicInteger n = new AtomicInteger();
        List<RequestRecord> rs;
        try (MockWebServer dying = new MockWebServer()) {
            dying.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
                    if (!request.getUrl().encodedPath().endsWith("/completions")) {
                        return new MockResponse.Builder().code(404).build();
                    }
                    if (n.getAndIncrement() == 0) return stream(sse(chunk("a", "stop"), "[DONE]"));
                    Thread.sleep(1500); // working on it, then gone without a word
                    return new MockResponse.Builder()
                            .onResponseStart(new SocketEffect.CloseSocket())
                            .build();
                }
            });
            dying.start();
            rs = run(dying, KeepAlive.ON, 1, 2, Duration.ZERO).records();
        }
        assertTrue(rs.get(0).succeeded(), rs.get(0).toString());
        RequestRecord broken = rs.get(1);
        assertEquals(RequestRecord.Connection.REUSED, broken.connection());
        assertEquals(RequestRecord.Outcome.FAILED, broken.outcome(), broken.toString());
        assertEquals(ErrorKind.RESET, broken.failure().kind());
    }

    @Test
    void thePreflightLearnsThatTheServerClosesAfterEachResponseAndNoRequestFails() throws IOException {
        AtomicInteger generations = new AtomicInteger();
        try (MockWebServer closing = closingAfterEveryResponse(generations)) {
            ProbeResult r = run(closing, KeepAlive.AUTO, 2, 12, Duration.ZERO);
            assertEquals(12, r.records().size());
            assertTrue(
                    r.records().stream().allMatch(RequestRecord::succeeded),
                    r.records().toString());
            assertTrue(r.records().stream().allMatch(x -> x.connection() == RequestRecord.Connection.NEW));
            assertTrue(
                    r.connections().contains("Connection: close")
                            && r.connections().contains("closed the connection"),
                    r.connections());
            assertEquals(13, generations.get(), "the preflight's one request, then one per record");
        }
    }

    @Test
    void aServerThatAnnouncesItsCloseNeedsNoLearningAndLosesNoRequest() throws IOException {
        AtomicInteger generations = new AtomicInteger();
        try (MockWebServer closing = closingAfterEveryResponse(generations, true)) {
            ProbeResult r = run(closing, KeepAlive.AUTO, 2, 12, Duration.ZERO);
            assertTrue(
                    r.records().stream().allMatch(RequestRecord::succeeded),
                    r.records().toString());
            assertTrue(r.connections().contains("saying so (Connection: close)"), r.connections());
        }
    }

    @Test
    void cachedPromptTokensInUsageAreKeptPerRequest() {
        script.add(stream(sse(
                chunk("a", "length"),
                "{\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":300,"
                        + "\"completion_tokens\":1,\"prompt_tokens_details\":{\"cached_tokens\":288}}}",
                "[DONE]")));
        script.add(stream(sse(
                chunk("a", "length"),
                "{\"id\":\"c2\",\"choices\":[],\"usage\":{\"prompt_tokens\":300,\"completion_tokens\":1}}",
                "[DONE]")));
        List<RequestRecord> rs = run(2);
        assertEquals(288, rs.get(0).cachedTokens());
        assertEquals(-1, rs.get(1).cachedTokens(), "a server that does not say is not taken to have cached nothing");
    }

    @Test
    void whenTheFirstRequestsAreAllRefusedTheSameWayTheRunStopsWithTheServersMessage() {
        String llamaCpp = "{\"error\":{\"code\":400,\"message\":\"request (4110 tokens) exceeds the available context "
                + "size (4096 tokens), try increasing it\",\"type\":\"exceed_context_size_error\"}}";
        for (int i = 0; i < 500; i++)
            script.add(new MockResponse.Builder().code(400).body(llamaCpp).build());
        var e = assertThrows(
                TargetRefusedException.class, () -> run(server, KeepAlive.ON, 4, 100, Duration.ofSeconds(5)));
        assertTrue(e.getMessage().contains("exceeds the available context size"), e.getMessage());
        assertTrue(e.getMessage().contains("http_4xx"), e.getMessage());
        assertTrue(
                generationRequests.get() <= FailFast.FIRST + 4,
                "stopped at once: " + generationRequests.get() + " sent");
    }

    @Test
    void usageInsideTheLastChunkWithAChoiceIsRead() {
        script.add(stream(sse(
                chunk("a", null),
                chunk("b", null),
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"c\"},\"finish_reason\":\"length\"}],"
                        + "\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":3,\"total_tokens\":14}}",
                "[DONE]")));
        RequestRecord r = run(1).getFirst();
        assertTrue(r.succeeded(), r.toString());
        assertEquals(3, r.completionTokens());
        assertEquals(TokenSource.USAGE, r.completionSource());
        assertEquals(11, r.promptTokens());
        assertEquals("c1", r.responseId());
    }

    @Test
    void roleArrivingWithTheFirstTokenCountsAsTheFirstToken() {
        script.add(stream(sse(
                "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
                        + "\"finish_reason\":null}]}",
                chunk(" there", "stop"),
                "[DONE]")));
        RequestRecord r = run(1).getFirst();
        assertTrue(r.succeeded(), r.toString());
        assertEquals(2, r.chunkNanos().length);
        assertEquals(r.chunkNanos()[0], r.firstTokenNanos());
    }

    @Test
    void anEmptyRoleChunkIsNotTheFirstToken() {
        script.add(stream(sse(
                "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
                        + "\"finish_reason\":null}]}",
                chunk("x", "stop"),
                "[DONE]")));
        RequestRecord r = run(1).getFirst();
        assertEquals(1, r.chunkNanos().length);
    }

    @Test
    void commentsAndKeepAlivesBetweenEventsAreIgnored() {
        script.add(stream(": ping\n\n" + sse(chunk("a", null), ": keep-alive", chunk("b", "stop"))
                + "\n\n: bye\n\ndata: [DONE]\n\n"));
        RequestRecord r = run(1).getFirst();
        assertTrue(r.succeeded(), r.toString());
        assertEquals(2, r.completionTokens());
        assertEquals(TokenSource.COUNTED, r.completionSource(), "no usage block: counted chunks, marked as such");
    }

    @Test
    void chunksCarryingSeveralTokensAreWeightedFromCumulativeUsage() {
        String u = ",\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":%d}}";
        script.add(stream(sse(
                chunk("abc", null).replaceAll("}$", "") + u.formatted(3),
                chunk("def", null).replaceAll("}$", "") + u.formatted(6),
                chunk("ghi", "length").replaceAll("}$", "") + u.formatted(9),
                "[DONE]")));
        RequestRecord r = run(1).getFirst();
        assertTrue(r.succeeded(), r.toString());
        assertArrayEquals(new int[] {3, 3, 3}, r.chunkTokens());
        assertEquals(9, r.completionTokens());
    }

    @Test
    void aServerThatClosesEveryConnectionIsStillDrivenAndEachRequestSentOnce() {
        for (int i = 0; i < 5; i++) {
            script.add(new MockResponse.Builder()
                    .setHeader("Content-Type", "text/event-stream")
                    .setHeader("Connection", "close")
                    .body(sse(chunk("a", "stop"), "[DONE]"))
                    .build());
        }
        List<RequestRecord> records = run(5);
        assertEquals(5, records.size());
        assertTrue(records.stream().allMatch(RequestRecord::succeeded), records.toString());
        assertEquals(5, generationRequests.get(), "no retries: exactly one HTTP request per record");
    }

    @Test
    void httpErrorsKeepTheServersMessage() {
        script.add(new MockResponse.Builder()
                .code(400)
                .body("{\"error\":{\"message\":\"bad things\"}}")
                .build());
        RequestRecord r = run(1).getFirst();
        assertEquals(ErrorKind.HTTP_4XX, r.failure().kind());
        assertEquals(400, r.httpStatus());
        assertTrue(r.failure().message().contains("bad things"), r.failure().message());
    }

    @Test
    void doneWithoutTokensIsEmptyAndNoEndIsTruncated() {
        script.add(stream(sse("[DONE]")));
        script.add(stream(sse(chunk("a", null), chunk("b", null))));
        List<RequestRecord> rs = run(2);
        assertEquals(ErrorKind.EMPTY, rs.get(0).failure().kind());
        assertEquals(ErrorKind.TRUNCATED, rs.get(1).failure().kind());
    }

    @Test
    void aNonStreamingAnswerIsOneChunkCarryingAllTokens() {
        script.add(new MockResponse.Builder()
                .setHeader("Content-Type", "application/json")
                .body("{\"id\":\"x\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                        + "\"content\":\"abc\"},"
                        + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":4,"
                        + "\"completion_tokens\":3}}")
                .build());
        RequestRecord r = run(1).getFirst();
        assertTrue(r.succeeded(), r.toString());
        assertEquals(3, r.completionTokens());
        assertArrayEquals(new int[] {3}, r.chunkTokens());
    }

    @Test
    void theApiKeyIsSentAsABearerTokenAndNeverShown() throws InterruptedException {
        script.add(stream(sse(chunk("a", "stop"), "[DONE]")));
        run(1);
        RecordedRequest req;
        do {
            req = server.takeRequest();
        } while (!req.getUrl().encodedPath().endsWith("/completions"));
        assertEquals("Bearer sk-secret", req.getHeaders().get("Authorization"));
        Target t = new Target(
                URI.create("http://h:1"),
                Api.CHAT,
                "m",
                "sk-secret",
                Map.of("X-Token", "tok"),
                false,
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1));
        assertTrue(!t.toString().contains("sk-secret") && !t.toString().contains("tok\""), t.toString());
    }
}
