package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ServerFacts;
import dev.headroom.model.ServerFacts.Key;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.sim.Imitation;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.http.SimServer;
import java.io.IOException;
import java.util.OptionalLong;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * What servers say about themselves, read from the simulator imitating each one over HTTP (its endpoints and fields
 * as each server's source has them), and from a server that says nothing.
 */
class ServerIntrospectionTest {

    private static ServerFacts readImitating(ServerKind kind, EngineConfig engine) {
        try (SimServer sim =
                SimServer.start(SimServer.Config.loopback(engine).withBehaviour(ServerBehaviour.imitating(kind)))) {
            return ServerIntrospection.read(ProbeSimTest.target(sim));
        }
    }

    private static EngineConfig as(ServerKind kind) {
        Imitation i = Imitation.of(kind);
        var b = ProbeSimTest.engine().toBuilder();
        if (i.maxNumSeqs() != null) b.maxNumSeqs(i.maxNumSeqs());
        if (i.contextPerRequest() != null) b.contextPerRequest(i.contextPerRequest());
        if (i.admitted() != null) b.maxWaiting(i.admitted() - (i.maxNumSeqs() == null ? 256 : i.maxNumSeqs()));
        return b.build();
    }

    private static Target at(MockWebServer server, String apiKey) {
        return new Target(
                server.url("/").uri(),
                Api.CHAT,
                null,
                apiKey,
                java.util.Map.of(),
                false,
                java.time.Duration.ofSeconds(2),
                java.time.Duration.ofSeconds(5),
                java.time.Duration.ofSeconds(5));
    }

    @Test
    void llamaCppStatesItsSlotsAndTheContextOfEach() {
        ServerFacts f = readImitating(ServerKind.LLAMA_CPP, as(ServerKind.LLAMA_CPP));
        assertEquals(ServerKind.LLAMA_CPP, f.kind());
        assertEquals(OptionalLong.of(4), f.maxRunning());
        assertEquals("GET /props: total_slots", f.source(Key.MAX_RUNNING));
        assertEquals(OptionalLong.of(1024), f.contextPerRequest());
        assertEquals(OptionalLong.of(4096), f.get(Key.CONTEXT_TOTAL));
    }

    @Test
    void vllmStatesItsContextPerRequestAndItsCacheButNotItsBatchCap() {
        EngineConfig e =
                ProbeSimTest.engine().toBuilder().contextPerRequest(16384).build();
        ServerFacts f = readImitating(ServerKind.VLLM, e);
        assertEquals(ServerKind.VLLM, f.kind());
        assertEquals(OptionalLong.of(16384), f.contextPerRequest());
        assertEquals("GET /v1/models: max_model_len", f.source(Key.CONTEXT_PER_REQUEST));
        assertEquals(OptionalLong.of(e.kvBlocks()), f.get(Key.KV_BLOCKS));
        assertEquals(OptionalLong.of(16), f.get(Key.BLOCK_SIZE));
        assertTrue(f.maxRunning().isEmpty(), "vLLM says max_num_seqs only in dev mode: " + f.describe());
    }

    @Test
    void sglangStatesItsRunningRequestsAndKvTokens() {
        EngineConfig e = ProbeSimTest.engine().toBuilder().maxNumSeqs(48).build();
        ServerFacts f = readImitating(ServerKind.SGLANG, e);
        assertEquals(ServerKind.SGLANG, f.kind());
        assertEquals(OptionalLong.of(48), f.maxRunning());
        assertTrue(f.source(Key.MAX_RUNNING).contains("effective_max_running_requests_per_dp"), f.describe());
        assertEquals(OptionalLong.of((long) e.kvBlocks() * e.blockSize()), f.get(Key.KV_TOKENS));
        assertEquals(OptionalLong.of(e.requestContext()), f.contextPerRequest());
    }

    @Test
    void tgiStatesWhatItAdmitsAndItsTokenLimitsButNotItsBatch() {
        ServerFacts f = readImitating(ServerKind.TGI, as(ServerKind.TGI));
        assertEquals(ServerKind.TGI, f.kind());
        assertEquals(OptionalLong.of(128), f.get(Key.MAX_CONCURRENT));
        assertEquals(OptionalLong.of(8192), f.contextPerRequest());
        assertEquals(OptionalLong.of(8191), f.get(Key.MAX_INPUT_TOKENS));
        assertTrue(f.maxRunning().isEmpty(), f.describe());
    }

    @Test
    void ollamaStatesTheLoadedModelsContextButNotItsParallelRequests() {
        ServerFacts f = readImitating(ServerKind.OLLAMA, as(ServerKind.OLLAMA));
        assertEquals(ServerKind.OLLAMA, f.kind());
        assertEquals(OptionalLong.of(4096), f.contextPerRequest());
        assertEquals("GET /api/ps: context_length", f.source(Key.CONTEXT_PER_REQUEST));
        assertTrue(f.maxRunning().isEmpty(), f.describe());
    }

    @Test
    void aServerThatAnswersNoIntrospectionIsUnknownAndStatesNothing() throws IOException {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    if (r.getUrl().encodedPath().equals("/v1/models")) {
                        return new MockResponse.Builder()
                                .code(200)
                                .body("{\"object\":\"list\",\"data\":[{\"id\":\"gpt-x\",\"owned_by\":\"someone\"}]}")
                                .build();
                    }
                    return new MockResponse.Builder().code(404).body("nope").build();
                }
            });
            server.start();
            ServerFacts f = ServerIntrospection.read(at(server, null));
            assertEquals(ServerKind.UNKNOWN, f.kind());
            assertTrue(f.facts().isEmpty(), f.describe());
            assertEquals("gpt-x", f.model());
        }
    }

    @Test
    void anApiKeyIsSentToTheIntrospectionEndpointsAndNeverShown() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    boolean authorised =
                            "Bearer sk-secret".equals(r.getHeaders().get("Authorization"));
                    if (r.getUrl().encodedPath().equals("/props") && authorised) {
                        return new MockResponse.Builder()
                                .code(200)
                                .body("{\"total_slots\":2,\"default_generation_settings\":{\"n_ctx\":2048}}")
                                .build();
                    }
                    return new MockResponse.Builder()
                            .code(authorised ? 404 : 401)
                            .build();
                }
            });
            server.start();
            ServerFacts f = ServerIntrospection.read(at(server, "sk-secret"));
            assertEquals(OptionalLong.of(2), f.maxRunning());
            assertEquals(OptionalLong.of(2048), f.contextPerRequest());
            assertTrue(!f.describe().contains("sk-secret"));
        }
    }
}
