package dev.headroom.sim.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.LengthDistribution;
import dev.headroom.sim.PseudoTokenizer;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.io.IOException;
import java.util.List;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SimServerHttpTest {
    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static SimServer server;
    static SimClient client;

    static EngineConfig engine() {
        return EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0)
                .withEosLength(new LengthDistribution.Fixed(7));
    }

    @BeforeAll
    static void start() {
        server = SimServer.start(SimServer.Config.loopback(engine()));
        client = new SimClient(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void chatStreamIsRoleThenContentThenFinishThenUsageThenDone() throws IOException {
        var s = client.stream("/v1/chat/completions", SimClient.chat(MODEL, 12, ""));
        assertEquals(200, s.code());
        assertTrue(s.headers().get("Content-Type").startsWith("text/event-stream"));
        List<SimClient.Line> lines = s.lines();
        assertNull(s.error());
        // role, 12 content chunks, usage, [DONE]
        assertEquals(15, lines.size(), lines.toString());
        JsonNode role = lines.get(0).json();
        assertEquals("chat.completion.chunk", role.get("object").asText());
        assertEquals("assistant", role.at("/choices/0/delta/role").asText());
        String id = role.get("id").asText();
        assertEquals(id, s.headers().get("X-Request-Id"));
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 12; i++) {
            JsonNode c = lines.get(i).json();
            assertEquals(id, c.get("id").asText());
            text.append(c.at("/choices/0/delta/content").asText());
            JsonNode finish = c.at("/choices/0/finish_reason");
            if (i < 12) assertTrue(finish.isNull(), "chunk " + i);
            else assertEquals("length", finish.asText());
        }
        assertEquals(12, PseudoTokenizer.count(text), "every generated token is one tokenizer token: " + text);
        JsonNode usage = lines.get(13).json();
        assertEquals(0, usage.get("choices").size());
        assertEquals(12, usage.at("/usage/completion_tokens").asInt());
        int prompt = PseudoTokenizer.chatPromptTokens(List.of("How many servers do we need?"));
        assertEquals(prompt, usage.at("/usage/prompt_tokens").asInt());
        assertEquals(prompt + 12, usage.at("/usage/total_tokens").asInt());
        assertTrue(lines.get(14).isDone());
    }

    @Test
    void tokensArriveAtDecodeSpeedNotAllAtOnce() throws IOException {
        var s = client.stream("/v1/chat/completions", SimClient.chat(MODEL, 40, ""));
        var lines = s.lines();
        double spanMs = (lines.get(40).nanos() - lines.get(1).nanos()) / 1e6;
        // 39 gaps of ~7 ms (one batch-1 decode step on an H100).
        // (The upper bound is loose: a shared CI machine may delay the client, never speed the engine up.)
        assertTrue(spanMs > 39 * 5 && spanMs < 39 * 40, "39 gaps took " + spanMs + " ms");
    }

    @Test
    void completionsStreamAndUsageWithoutRoleChunk() throws IOException {
        var s = client.stream(
                "/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"Say hi\",\"max_tokens\":5,"
                        + "\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}");
        var lines = s.lines();
        assertEquals(7, lines.size(), lines.toString());
        assertEquals("text_completion", lines.get(0).json().get("object").asText());
        assertFalse(lines.get(0).json().at("/choices/0/text").isMissingNode());
        assertEquals(
                "length", lines.get(4).json().at("/choices/0/finish_reason").asText());
        assertEquals(
                PseudoTokenizer.completionPromptTokens("Say hi"),
                lines.get(5).json().at("/usage/prompt_tokens").asInt());
        assertTrue(lines.get(6).isDone());
    }

    @Test
    void withoutIncludeUsageThereIsNoUsageChunk() throws IOException {
        var s = client.stream(
                "/v1/chat/completions",
                "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"x\"}],\"max_tokens\":3,\"ignore_eos\":true,\"stream\":true}");
        assertEquals(5, s.lines().size(), s.lines().toString());
        assertTrue(s.lines().stream().noneMatch(l -> l.data().contains("\"usage\"")));
    }

    @Test
    void nonStreamingResponsesCarryTheWholeTextAndUsage() throws IOException {
        try (Response r = client.post(
                "/v1/chat/completions",
                "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"hi\"}],\"max_completion_tokens\":9,\"ignore_eos\":true}")) {
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            assertEquals("chat.completion", j.get("object").asText());
            assertEquals(
                    9, PseudoTokenizer.count(j.at("/choices/0/message/content").asText()));
            assertEquals(9, j.at("/usage/completion_tokens").asInt());
            assertEquals("length", j.at("/choices/0/finish_reason").asText());
        }
        try (Response r = client.post(
                "/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":4,\"ignore_eos\":true}")) {
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            assertEquals("text_completion", j.get("object").asText());
            assertEquals(4, j.at("/usage/completion_tokens").asInt());
        }
    }

    @Test
    void withoutIgnoreEosTheModelStopsOnItsOwnButNotBeforeMinTokens() throws IOException {
        String base = "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":100";
        try (Response r = client.post("/v1/completions", base + "}")) {
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            assertEquals(7, j.at("/usage/completion_tokens").asInt(), "EOS length is fixed:7 in this server");
            assertEquals("stop", j.at("/choices/0/finish_reason").asText());
        }
        try (Response r = client.post("/v1/completions", base + ",\"min_tokens\":20}")) {
            assertEquals(
                    20,
                    SimClient.JSON
                            .readTree(r.body().string())
                            .at("/usage/completion_tokens")
                            .asInt());
        }
        try (Response r = client.post("/v1/completions", base.replace("100", "5") + "}")) {
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            assertEquals(5, j.at("/usage/completion_tokens").asInt(), "max_tokens caps the natural length");
            assertEquals("length", j.at("/choices/0/finish_reason").asText());
        }
    }

    @Test
    void tokenizeCountsWhatTheUsageBlockReports() throws IOException {
        String prompt = "The quick brown fox, tokenized deterministically.";
        int count;
        try (Response r = client.post("/tokenize", "{\"prompt\":" + SimClient.JSON.writeValueAsString(prompt) + "}")) {
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            count = j.get("count").asInt();
            assertEquals(count, j.get("tokens").size());
            assertEquals(131072, j.get("max_model_len").asInt());
        }
        try (Response r = client.post(
                "/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":" + SimClient.JSON.writeValueAsString(prompt)
                        + ",\"max_tokens\":1}")) {
            assertEquals(
                    count,
                    SimClient.JSON
                            .readTree(r.body().string())
                            .at("/usage/prompt_tokens")
                            .asInt());
        }
        String messages =
                "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hello there\"}]";
        try (Response r = client.post("/tokenize", "{\"messages\":" + messages + "}")) {
            count = SimClient.JSON.readTree(r.body().string()).get("count").asInt();
        }
        try (Response r = client.post(
                "/v1/chat/completions",
                "{\"model\":\"" + MODEL + "\",\"messages\":" + messages + ",\"max_tokens\":1}")) {
            assertEquals(
                    count,
                    SimClient.JSON
                            .readTree(r.body().string())
                            .at("/usage/prompt_tokens")
                            .asInt());
        }
    }

    @Test
    void modelsHealthAndMetricsAnswer() throws IOException {
        try (Response r = client.get("/v1/models")) {
            JsonNode j = SimClient.JSON.readTree(r.body().string());
            assertEquals(MODEL, j.at("/data/0/id").asText());
        }
        try (Response r = client.get("/health")) {
            assertEquals(200, r.code());
        }
        client.stream("/v1/chat/completions", SimClient.chat(MODEL, 3, "")).lines();
        try (Response r = client.get("/metrics")) {
            String text = r.body().string();
            for (String name : List.of(
                    "vllm:num_requests_running",
                    "vllm:num_requests_waiting",
                    "vllm:kv_cache_usage_perc",
                    "vllm:gpu_cache_usage_perc",
                    "vllm:prompt_tokens_total",
                    "vllm:generation_tokens_total",
                    "vllm:num_preemptions_total",
                    "headroom_sim_emit_lag_seconds")) {
                assertTrue(
                        text.contains("\n" + name) || text.startsWith(name) || text.contains("# TYPE " + name), name);
            }
            long generated = text.lines()
                    .filter(l -> l.startsWith("vllm:generation_tokens_total{"))
                    .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum();
            assertTrue(generated >= 3, text);
        }
    }

    @Test
    void groundTruthTraceHasEveryTokenWriteTime() throws IOException {
        var s = client.stream("/v1/chat/completions", SimClient.chat(MODEL, 6, ""));
        String id = s.headers().get("X-Request-Id");
        try (Response r = client.get("/debug/requests/" + id)) {
            assertEquals(200, r.code());
            JsonNode t = SimClient.JSON.readTree(r.body().string());
            assertEquals("ok", t.get("outcome").asText());
            assertEquals(6, t.get("token_written_us").size());
            assertEquals(6, t.get("token_intended_us").size());
            long arrival = t.get("arrival_us").asLong();
            long first = t.get("first_token_us").asLong();
            assertTrue(first > arrival, t.toString());
            for (int i = 0; i < 6; i++) {
                long lag = t.get("token_written_us").get(i).asLong()
                        - t.get("token_intended_us").get(i).asLong();
                assertTrue(lag >= 0 && lag < 50_000, "emit lag " + lag + " us");
            }
        }
        try (Response r = client.get("/debug/requests/nope")) {
            assertEquals(404, r.code());
        }
    }

    @Test
    void serverEmitLagIsRecordedForEveryStreamedToken() throws IOException {
        long before = server.emitLagMicros().getTotalCount();
        client.stream("/v1/chat/completions", SimClient.chat(MODEL, 10, "")).lines();
        assertTrue(server.emitLagMicros().getTotalCount() >= before + 10);
    }
}
