package dev.headroom.sim.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.model.Workload;
import dev.headroom.sim.Imitation;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.OverContext;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** The simulator imitating the servers people run: their context limits, refusals and error bodies, over HTTP and on
 * the virtual clock alike. */
class ImitationTest {
    private static final String M = SimServerHttpTest.MODEL;

    private static EngineConfig engine(ServerKind kind) {
        Imitation i = Imitation.of(kind);
        var b = SimServerHttpTest.engine().toBuilder().overContext(i.overContext());
        if (i.maxNumSeqs() != null) b.maxNumSeqs(i.maxNumSeqs());
        if (i.contextPerRequest() != null) b.contextPerRequest(i.contextPerRequest());
        return b.build();
    }

    private static SimServer start(ServerKind kind) {
        return SimServer.start(SimServer.Config.loopback(engine(kind)).withBehaviour(ServerBehaviour.imitating(kind)));
    }

    /** A completion of exactly {@code prompt} prompt tokens (ids as given), not streamed. */
    private static String completion(int prompt, int maxTokens) {
        String ids =
                IntStream.range(0, prompt).mapToObj(i -> "" + (100 + i % 1000)).collect(Collectors.joining(","));
        return "{\"model\":\"" + M + "\",\"prompt\":[" + ids + "],\"max_tokens\":" + maxTokens
                + ",\"ignore_eos\":true}";
    }

    private static JsonNode json(Response r) throws IOException {
        try (r) {
            return SimClient.JSON.readTree(r.body().string());
        }
    }

    @Test
    void vllmTakesLargerBatchesOnLargeGpusOtherThanTheA100() {
        var h100 = Imitation.of(ServerKind.VLLM, dev.headroom.sim.profile.Profiles.hardware("h100-sxm"));
        var a100 = Imitation.of(ServerKind.VLLM, dev.headroom.sim.profile.Profiles.hardware("a100-80gb"));
        var l40s = Imitation.of(ServerKind.VLLM, dev.headroom.sim.profile.Profiles.hardware("l40s"));
        assertEquals(1024, h100.maxNumSeqs());
        assertEquals(8192, h100.maxNumBatchedTokens());
        assertEquals(256, a100.maxNumSeqs());
        assertEquals(2048, a100.maxNumBatchedTokens());
        assertEquals(256, l40s.maxNumSeqs());
        // Another server keeps its own limits whatever the GPU.
        assertEquals(
                4,
                Imitation.of(ServerKind.LLAMA_CPP, dev.headroom.sim.profile.Profiles.hardware("h100-sxm"))
                        .maxNumSeqs());
    }

    @Test
    void llamaCppRefusesAPromptThatFillsTheSlotsContextInItsOwnErrorShape() throws IOException {
        try (SimServer s = start(ServerKind.LLAMA_CPP)) {
            SimClient c = new SimClient(s);
            Response r = c.post("/v1/completions", completion(1030, 16));
            assertEquals(400, r.code());
            JsonNode e = json(r).path("error");
            assertEquals("exceed_context_size_error", e.path("type").asText());
            assertEquals(1030, e.path("n_prompt_tokens").asInt());
            assertEquals(1024, e.path("n_ctx").asInt());
            assertTrue(e.path("message").asText().contains("exceeds the available context size (1024 tokens)"));
        }
    }

    @Test
    void llamaCppStopsAnAnswerAtTheSlotsContext() throws IOException {
        try (SimServer s = start(ServerKind.LLAMA_CPP)) {
            JsonNode j = json(new SimClient(s).post("/v1/completions", completion(900, 500)));
            assertEquals(124, j.path("usage").path("completion_tokens").asInt(), j.toString());
            assertEquals(
                    "length", j.path("choices").path(0).path("finish_reason").asText());
        }
    }

    @Test
    void tgiRefusesOverItsTotalTokensWithAValidationError() throws IOException {
        try (SimServer s = start(ServerKind.TGI)) {
            Response r = new SimClient(s).post("/v1/completions", completion(8000, 500));
            assertEquals(422, r.code());
            JsonNode j = json(r);
            assertEquals("validation", j.path("error_type").asText());
            assertTrue(j.path("error").asText().contains("must be <= 8192"), j.toString());
        }
    }

    @Test
    void ollamaCutsAPromptToItsContextInsteadOfRefusing() throws IOException {
        try (SimServer s = start(ServerKind.OLLAMA)) {
            JsonNode j = json(new SimClient(s).post("/v1/completions", completion(5000, 8)));
            assertEquals(4095, j.path("usage").path("prompt_tokens").asInt(), j.toString());
            assertEquals(1, j.path("usage").path("completion_tokens").asInt());
        }
    }

    @Test
    void eachImitationAnswersItsOwnIntrospectionAndNotTheOthers() throws IOException {
        try (SimServer s = start(ServerKind.LLAMA_CPP)) {
            SimClient c = new SimClient(s);
            JsonNode props = json(c.get("/props"));
            assertEquals(4, props.path("total_slots").asInt());
            assertEquals(
                    1024,
                    props.path("default_generation_settings").path("n_ctx").asInt());
            assertEquals(4, json(c.get("/slots")).size());
            try (Response r = c.get("/info")) {
                assertEquals(404, r.code());
            }
        }
        try (SimServer s = start(ServerKind.TGI)) {
            try (Response r = new SimClient(s).get("/props")) {
                assertEquals(404, r.code());
            }
        }
    }

    @Test
    void theVirtualClockRefusesAndCutsAsTheServerDoes() {
        EngineConfig llama = engine(ServerKind.LLAMA_CPP);
        List<RequestRecord> over = run(llama, 1030, 16);
        assertEquals(400, over.getFirst().httpStatus(), over.getFirst().toString());
        List<RequestRecord> cut = run(llama, 900, 500);
        assertTrue(cut.getFirst().succeeded());
        assertEquals(124, cut.getFirst().completionTokens());
        List<RequestRecord> refused =
                run(engine(ServerKind.VLLM).toBuilder().contextPerRequest(1024).build(), 900, 500);
        assertEquals(400, refused.getFirst().httpStatus());
        assertEquals(OverContext.REFUSE, engine(ServerKind.VLLM).overContext());
    }

    private static List<RequestRecord> run(EngineConfig e, int isl, int osl) {
        return new VirtualEngine(e)
                .measure(new MeasurementRequest(
                        new LoadModel.Closed(1),
                        Workload.fixed(isl, osl),
                        new RunLength(1, Double.POSITIVE_INFINITY, 0, 0, 0),
                        1))
                .records();
    }
}
