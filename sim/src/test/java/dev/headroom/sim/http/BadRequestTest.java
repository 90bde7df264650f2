package dev.headroom.sim.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BadRequestTest {
    static final String M = SimServerHttpTest.MODEL;
    static SimServer server;
    static SimClient client;

    @BeforeAll
    static void start() {
        server = SimServer.start(SimServer.Config.loopback(SimServerHttpTest.engine()));
        client = new SimClient(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode expectError(Response r, int status, String messagePart) throws IOException {
        try (r) {
            assertEquals(status, r.code());
            assertTrue(r.header("Content-Type").startsWith("application/json"));
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            JsonNode e = j.get("error");
            assertTrue(
                    e != null && e.get("message").isTextual() && e.get("type").isTextual(), j.toString());
            assertTrue(
                    e.get("message").asText().contains(messagePart),
                    e.get("message").asText());
            return e;
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "invalid JSON                  | 400 | {\"model\": | not valid JSON",
                "not an object                 | 400 | [1,2] | JSON object",
                "missing model                 | 400 | {\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]} | "
                        + "'model' is required",
                "unknown model                 | 404 | {\"model\":\"gpt-9\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"x\"}]} | gpt-9",
                "missing messages              | 400 | {\"model\":\"" + M + "\"} | 'messages' is required",
                "empty messages                | 400 | {\"model\":\"" + M + "\",\"messages\":[]} | non-empty",
                "message without role          | 400 | {\"model\":\"" + M
                        + "\",\"messages\":[{\"content\":\"x\"}]} | role",
                "n greater than one            | 400 | {\"model\":\"" + M
                        + "\",\"n\":2,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]} | n=1",
                "max_tokens zero               | 400 | {\"model\":\"" + M
                        + "\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]} | max_tokens",
                "max_tokens not a number       | 400 | {\"model\":\"" + M
                        + "\",\"max_tokens\":\"ten\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"x\"}]} | max_tokens",
                "stream not a boolean          | 400 | {\"model\":\"" + M
                        + "\",\"stream\":\"yes\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]} | stream",
                "stream_options without stream | 400 | {\"model\":\"" + M
                        + "\",\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"x\"}]} | stream",
                "min above max                 | 400 | {\"model\":\"" + M
                        + "\",\"max_tokens\":3,\"min_tokens\":9,\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"x\"}]} | min_tokens",
                "over the context length       | 400 | {\"model\":\"" + M
                        + "\",\"max_tokens\":200000,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]} | maximum "
                        + "context length",
            })
    void badChatRequestGetsAnOpenAiStyleError(String name, int status, String body, String messagePart)
            throws IOException {
        expectError(client.post("/v1/chat/completions", body), status, messagePart);
    }

    @Test
    void completionWithoutPromptIsRefused() throws IOException {
        expectError(client.post("/v1/completions", "{\"model\":\"" + M + "\"}"), 400, "'prompt' is required");
        expectError(
                client.post("/v1/completions", "{\"model\":\"" + M + "\",\"prompt\":[\"a\",\"b\"]}"), 400, "batched");
    }

    @Test
    void bodyOverTheLimitGets413() throws IOException {
        String huge = "{\"model\":\"" + M + "\",\"prompt\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}";
        expectError(client.post("/v1/completions", huge), 413, "larger than the limit");
    }

    @Test
    void wrongMethodAndUnknownPath() throws IOException {
        expectError(client.get("/v1/chat/completions"), 405, "GET");
        expectError(client.get("/v1/nothing"), 404, "/v1/nothing");
        expectError(client.post("/v1/models", "{}"), 405, "POST");
        var req = new Request.Builder()
                .url(client.base + "/v1/completions")
                .put(RequestBody.create("{}", MediaType.get("application/json")))
                .build();
        expectError(client.http.newCall(req).execute(), 405, "PUT");
    }

    @Test
    void serverStillServesAfterEveryBadRequest() throws IOException {
        for (String body : new String[] {"", "null", "{", "\u0000\u0001", "{\"model\":1}", "{\"messages\":{}}"}) {
            try (Response r = client.post("/v1/chat/completions", body)) {
                assertEquals(400, r.code(), "body " + body);
            }
        }
        var s = client.stream("/v1/chat/completions", SimClient.chat(M, 4, ""));
        assertEquals(200, s.code());
        assertTrue(s.lines().getLast().isDone());
    }
}
