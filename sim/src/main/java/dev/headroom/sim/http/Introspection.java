package dev.headroom.sim.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.sim.engine.EngineConfig;
import java.util.List;

/**
 * What the simulator says about itself when it imitates a server, in that server's own endpoints and field names
 * (docs/calibrate.md has the table, from each server's source): llama.cpp's {@code /props} and {@code /slots},
 * vLLM's {@code /v1/models} and {@code /version}, SGLang's {@code /get_server_info}, TGI's {@code /info}, Ollama's
 * {@code /api/ps}, {@code /api/show} and {@code /api/version}. Over HTTP and on the virtual clock alike, so that
 * the client reads both with one parser.
 */
public final class Introspection {
    /** One answer: its HTTP status and body. */
    public record Reply(int status, String body) {}

    private static final Reply NOT_FOUND = new Reply(404, "{\"error\":{\"message\":\"not found\",\"code\":404}}");

    private Introspection() {}

    /** The paths a server of {@code kind} answers about itself, besides {@code /v1/models} and {@code /health}. */
    public static List<String> paths(ServerKind kind) {
        return switch (kind) {
            case LLAMA_CPP -> List.of("/props", "/slots");
            case VLLM -> List.of("/version");
            case SGLANG -> List.of("/get_server_info", "/server_info", "/get_model_info");
            case TGI -> List.of("/info");
            case OLLAMA -> List.of("/api/ps", "/api/show", "/api/version");
            case UNKNOWN -> List.of();
        };
    }

    /** The answer of a server of {@code kind} running {@code engine} to {@code method path}. */
    public static Reply answer(ServerKind kind, EngineConfig engine, String servedModel, String method, String path) {
        if (path.equals("/v1/models") && method.equals("GET")) return new Reply(200, models(kind, engine, servedModel));
        if (path.equals("/metrics") && kind == ServerKind.VLLM && method.equals("GET")) {
            // Only the cache config (the HTTP server's /metrics has it beside the live gauges).
            return new Reply(200, "vllm:cache_config_info" + cacheConfigLabels(engine, engine.kvBlocks()) + " 1.0\n");
        }
        if (!paths(kind).contains(path)) return NOT_FOUND;
        boolean post = path.equals("/api/show");
        if (!method.equals(post ? "POST" : "GET")) {
            return new Reply(405, "{\"error\":{\"message\":\"method not allowed\",\"code\":405}}");
        }
        ObjectNode o = Json.MAPPER.createObjectNode();
        int ctx = engine.requestContext();
        int slots = engine.maxNumSeqs();
        switch (path) {
            case "/props" -> {
                ObjectNode settings = o.putObject("default_generation_settings");
                settings.putObject("params").put("n_predict", -1);
                settings.put("n_ctx", ctx);
                o.put("total_slots", slots);
                o.put("model_alias", servedModel);
                o.put("model_path", "/models/" + engine.model().name() + ".gguf");
                o.put("endpoint_slots", true);
                o.put("build_info", "b0000-headroom-sim");
            }
            case "/slots" -> {
                ArrayNode a = Json.MAPPER.createArrayNode();
                for (int i = 0; i < slots; i++) {
                    a.addObject()
                            .put("id", i)
                            .put("n_ctx", ctx)
                            .put("speculative", false)
                            .put("is_processing", false);
                }
                return new Reply(200, a.toString());
            }
            case "/version" -> o.put("version", "0.0.0-headroom-sim");
            case "/get_server_info", "/server_info" -> {
                o.put("model_path", engine.model().name());
                o.put("served_model_name", servedModel);
                o.putNull("context_length");
                o.put("max_running_requests", slots);
                o.put("chunked_prefill_size", engine.chunkedPrefill() ? engine.maxNumBatchedTokens() : -1);
                o.put("max_prefill_tokens", Math.max(16384, engine.maxNumBatchedTokens()));
                o.put("disable_radix_cache", !engine.prefixCaching());
                o.put("page_size", engine.blockSize());
                o.put("tp_size", engine.tensorParallel());
                o.put("dp_size", 1);
                o.put("status", "ready");
                long tokens = (long) engine.kvBlocks() * engine.blockSize();
                o.put("max_total_num_tokens", tokens);
                o.put("max_req_input_len", ctx - 6);
                ObjectNode state = o.putArray("internal_states").addObject();
                state.put("effective_max_running_requests_per_dp", slots);
                state.putObject("memory_usage").put("token_capacity", tokens);
                o.put("version", "0.5.0-headroom-sim");
            }
            case "/get_model_info" -> {
                o.put("model_path", engine.model().name());
                o.put("tokenizer_path", engine.model().name());
                o.put("is_generation", true);
            }
            case "/info" -> {
                o.put("model_id", servedModel);
                o.put("model_pipeline_tag", "text-generation");
                // TGI admits this many requests at once, the batch and its queue; beyond, HTTP 429.
                o.put("max_concurrent_requests", slots + engine.maxWaiting());
                o.put("max_best_of", 2);
                o.put("max_stop_sequences", 4);
                o.put("max_input_tokens", ctx - 1);
                o.put("max_total_tokens", ctx);
                o.put("validation_workers", 2);
                o.put("max_client_batch_size", 4);
                o.put("router", "text-generation-router");
                o.put("version", "3.3.7-headroom-sim");
            }
            case "/api/ps" -> {
                ObjectNode m = o.putArray("models").addObject();
                m.put("name", servedModel);
                m.put("model", servedModel);
                m.put("size", (long) engine.model().weightBytes());
                m.putObject("details").put("format", "gguf");
                m.put("size_vram", (long) engine.model().weightBytes());
                m.put("context_length", ctx);
            }
            case "/api/show" -> {
                String arch = "llama";
                o.put("parameters", "num_ctx                        " + ctx);
                o.putObject("details").put("format", "gguf").put("family", arch);
                ObjectNode info = o.putObject("model_info");
                info.put("general.architecture", arch);
                info.put(arch + ".context_length", engine.model().maxContext());
                info.put(arch + ".block_count", engine.model().layers());
            }
            case "/api/version" -> o.put("version", "0.12.0-headroom-sim");
            default -> {
                return NOT_FOUND;
            }
        }
        return new Reply(200, o.toString());
    }

    /** vLLM's {@code vllm:cache_config_info} labels, as its {@code CacheConfig.metrics_info()} writes them. */
    static String cacheConfigLabels(EngineConfig engine, long kvBlocks) {
        return "{block_size=\"" + engine.blockSize() + "\",enable_prefix_caching=\""
                + (engine.prefixCaching() ? "True" : "False") + "\",gpu_memory_utilization=\""
                + engine.gpuMemoryUtilization() + "\",num_gpu_blocks=\"" + kvBlocks + "\"}";
    }

    private static String models(ServerKind kind, EngineConfig engine, String servedModel) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("object", "list");
        ObjectNode m = o.putArray("data").addObject();
        m.put("id", servedModel);
        m.put("object", "model");
        m.put("created", System.currentTimeMillis() / 1000);
        switch (kind) {
            case VLLM, UNKNOWN -> {
                m.put("owned_by", kind == ServerKind.VLLM ? "vllm" : "headroom-sim");
                m.put("root", servedModel);
                m.put("max_model_len", engine.requestContext());
            }
            case SGLANG -> {
                m.put("owned_by", "sglang");
                m.put("root", servedModel);
                m.put("max_model_len", engine.requestContext());
            }
            case LLAMA_CPP -> {
                m.put("owned_by", "llamacpp");
                ObjectNode meta = m.putObject("meta");
                meta.put("n_ctx", engine.requestContext());
                meta.put("n_ctx_train", engine.model().maxContext());
                meta.put("n_params", (long) engine.model().parameters());
            }
            case TGI -> m.put("owned_by", "text-generation-inference");
            case OLLAMA -> m.put("owned_by", "library");
        }
        return o.toString();
    }
}
