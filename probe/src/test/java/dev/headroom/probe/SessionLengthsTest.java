package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.Workload;
import dev.headroom.sim.http.ChatTemplate;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.http.SimServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every turn of a session lands where the client computed it: the chat template's cost per message and the resent
 * answers counted as the server counts them, whatever its tokenize shape — the case of a real llama.cpp server whose
 * turn prompts landed 15–17 % over the client's count (Llama 3.1's system block, more tokens per filler word).
 */
class SessionLengthsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The sessions: 4 turns of 128 / 32 tokens after a 256-token system prompt. */
    private static MeasurementRequest sessions(int users, int requests) {
        SessionSpec spec = SessionSpec.chat(
                4, new LengthDistribution.Fixed(128), new LengthDistribution.Fixed(32), ThinkTime.NONE, 256);
        return new MeasurementRequest(
                new LoadModel.Closed(users),
                Workload.fixed(1, 1),
                new RunLength(requests, Double.POSITIVE_INFINITY, 0, 0, 0, 30),
                7,
                null,
                0,
                0,
                spec);
    }

    /** The worst |server's count ÷ client's − 1| over the turns, from {@code fromTurn} on. */
    private static double worst(List<RequestRecord> records, int fromTurn) {
        double worst = 0;
        for (RequestRecord r : records) {
            assertTrue(r.succeeded(), r.toString());
            if (r.turn().turn() < fromTurn) continue;
            worst = Math.max(worst, Math.abs((double) r.promptTokens() / r.requestedInputTokens() - 1));
        }
        return worst;
    }

    @ParameterizedTest
    @EnumSource(
            value = ServerKind.class,
            names = {"VLLM", "LLAMA_CPP", "TGI"})
    void turnsLandWithinOnePercentOnEveryTokenizeShapeUnderLlama31sTemplate(ServerKind kind) {
        ServerBehaviour b = ServerBehaviour.imitating(kind).withChatTemplate(ChatTemplate.LLAMA_3_1);
        try (SimServer sim =
                SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()).withBehaviour(b))) {
            List<RequestRecord> records = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(1, 1), sessions(4, 32), r -> {})
                    .records();
            double worst = worst(records, 0);
            assertTrue(worst <= 0.01, kind + ": a turn landed " + worst + " off");
        }
    }

    /**
     * Two sessions' turns in flight at once: the correction moves when one is answered, and the other's count is
     * learned against the estimate it was sent with (CI once read a later turn 2.5 % off when the observation was
     * taken against the moved correction).
     */
    @Test
    void aTurnAnsweredAfterAnotherSessionMovedTheCorrectionIsLearnedAsItWasSent() {
        SessionLengths lengths = new SessionLengths();
        // The server counts 10 tokens more, and 5 more a message, than the template approximation.
        java.util.function.IntBinaryOperator server = (raw, messages) -> raw + 10 + 5 * messages;
        double first = lengths.uncorrected(100, false, 0);
        double third = lengths.uncorrected(300, false, 1);
        assertTrue(lengths.corrected(first, 1) == (int) Math.round(first), "nothing learned yet");
        lengths.observe(third, 3, server.applyAsInt((int) third, 3));
        lengths.observe(first, 1, server.applyAsInt((int) first, 1));
        double fifth = lengths.uncorrected(500, false, 2);
        int expected = server.applyAsInt((int) fifth, 5);
        assertTrue(
                lengths.corrected(fifth, 5) == expected,
                "the fifth message's prompt: " + lengths.corrected(fifth, 5) + " estimated, " + expected + " counted");
    }

    @Test
    void withoutATokenizeEndpointTheServersCountsCorrectTheTurnsAfterTheFirst() {
        ServerBehaviour b = ServerBehaviour.imitating(ServerKind.OLLAMA).withChatTemplate(ChatTemplate.LLAMA_3_1);
        try (SimServer sim =
                SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()).withBehaviour(b))) {
            List<RequestRecord> records = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(1, 1), sessions(2, 24), r -> {})
                    .records();
            assertTrue(worst(records, 2) <= 0.02, "later turns " + worst(records, 2));
        }
    }

    /**
     * A server whose tokenizer counts 1.15 tokens a filler word (and so its own answers, resent, at more tokens than
     * it streamed), with Llama 3.1's template costs: 6 tokens a message, a 20-token system block, 1 + 4 around.
     */
    private static int count(JsonNode messages) {
        int n = 1 + 4 + 20;
        for (JsonNode m : messages) {
            String c = m.path("content").asText().trim();
            int words = c.isEmpty() ? 0 : c.split("\\s+").length;
            n += 6 + (int) Math.ceil(1.15 * words);
        }
        return n;
    }

    @Test
    void aTokenizerWithMoreTokensAWordIsLearnedFromItsTokenizeEndpoint() throws IOException {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    String path = r.getUrl().encodedPath();
                    try {
                        if (path.equals("/v1/models")) {
                            return json("{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"max_model_len\":4096}]}");
                        }
                        JsonNode body = JSON.readTree(r.getBody().utf8());
                        if (path.equals("/tokenize") && body.has("messages")) {
                            return json("{\"count\":" + count(body.get("messages")) + ",\"max_model_len\":4096}");
                        }
                        if (path.equals("/v1/chat/completions")) return stream(body);
                    } catch (IOException e) {
                        return new MockResponse.Builder().code(400).build();
                    }
                    return new MockResponse.Builder().code(404).build();
                }
            });
            server.start();
            Target t = new Target(
                    server.url("/").uri(),
                    Api.CHAT,
                    null,
                    null,
                    Map.of(),
                    false,
                    java.time.Duration.ofSeconds(2),
                    java.time.Duration.ofSeconds(10),
                    java.time.Duration.ofSeconds(20));
            List<RequestRecord> records = new Probe(t)
                    .run(ProbeSimTest.fixed(1, 1), sessions(2, 16), r -> {})
                    .records();
            assertTrue(worst(records, 0) <= 0.02, "worst " + worst(records, 0));
            // The turns were asked at their lengths on this tokenizer too: the new message is about 128 tokens.
            RequestRecord first = records.stream()
                    .filter(r -> r.turn().turn() == 0)
                    .findFirst()
                    .orElseThrow();
            assertTrue(Math.abs(first.promptTokens() - (1 + 4 + 20 + 6 + 256 + 6 + 128)) <= 8, first.toString());
        }
    }

    private static MockResponse json(String body) {
        return new MockResponse.Builder()
                .code(200)
                .setHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    private static MockResponse stream(JsonNode body) {
        int osl =
                body.path("max_tokens").asInt(body.path("max_completion_tokens").asInt(16));
        List<String> events = new ArrayList<>();
        for (int i = 0; i < osl; i++) {
            events.add("{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{"
                    + (i == 0 ? "\"role\":\"assistant\"," : "") + "\"content\":\" tok\"},\"finish_reason\":"
                    + (i == osl - 1 ? "\"length\"" : "null") + "}]}");
        }
        events.add("{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":"
                + count(body.get("messages")) + ",\"completion_tokens\":" + osl + ",\"total_tokens\":0}}");
        events.add("[DONE]");
        StringBuilder b = new StringBuilder();
        for (String e : events) b.append("data: ").append(e).append("\n\n");
        return new MockResponse.Builder()
                .code(200)
                .setHeader("Content-Type", "text/event-stream")
                .body(b.toString())
                .build();
    }
}
