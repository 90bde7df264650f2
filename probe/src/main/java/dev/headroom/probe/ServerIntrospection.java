package dev.headroom.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.ServerFacts.Fact;
import dev.headroom.model.ServerFacts.Key;
import dev.headroom.model.ServerFacts.ServerKind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Reads what a server says about itself before any load, in each server's own endpoints and fields (learned from
 * their source; docs/calibrate.md has the table): llama.cpp {@code /props} and {@code /slots}, vLLM
 * {@code /v1/models} ({@code max_model_len}) and {@code /metrics} ({@code vllm:cache_config_info}), SGLang
 * {@code /get_server_info} (or {@code /server_info}), TGI {@code /info}, Ollama {@code /api/ps} and
 * {@code /api/show}. Every field is optional: a server that answers none of them is {@link ServerKind#UNKNOWN},
 * and what it does not say is measured.
 */
public final class ServerIntrospection {
    /** One answer: its HTTP status (0 when none came) and body. */
    public record Reply(int status, String body) {
        static final Reply NONE = new Reply(0, "");

        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** Where the answers come from: the server over HTTP, or the simulator asked directly. */
    public interface Source {
        Reply get(String path);

        Reply post(String path, String json);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CACHE_INFO = Pattern.compile("^vllm:cache_config_info\\{([^}]*)}", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final Source source;
    private final List<Fact> facts = new ArrayList<>();
    private ServerKind kind = ServerKind.UNKNOWN;
    private String version;
    private String model;

    private ServerIntrospection(Source source) {
        this.source = source;
    }

    /** What the server behind {@code source} says about itself. */
    public static ServerFacts read(Source source) {
        ServerIntrospection r = new ServerIntrospection(source);
        r.readAll();
        return new ServerFacts(r.kind, r.version, r.model, r.facts);
    }

    /** What {@code target} says about itself over HTTP (with its key and headers; a few seconds at most per call). */
    public static ServerFacts read(Target target) {
        OkHttpClient http = new OkHttpClient.Builder()
                .callTimeout(Duration.ofSeconds(5))
                .connectTimeout(target.connectTimeout())
                .retryOnConnectionFailure(true)
                .followRedirects(false)
                .build();
        try {
            return read(http(http, target));
        } finally {
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }

    private static Source http(OkHttpClient http, Target target) {
        return new Source() {
            @Override
            public Reply get(String path) {
                return call(new Request.Builder().url(target.url(path)).get(), target, http);
            }

            @Override
            public Reply post(String path, String json) {
                return call(
                        new Request.Builder()
                                .url(target.url(path))
                                .post(RequestBody.create(json, MediaType.get("application/json"))),
                        target,
                        http);
            }
        };
    }

    private static Reply call(Request.Builder b, Target target, OkHttpClient http) {
        if (target.apiKey() != null) b.header("Authorization", "Bearer " + target.apiKey());
        for (Map.Entry<String, String> h : target.headers().entrySet()) b.header(h.getKey(), h.getValue());
        try (Response r = http.newCall(b.build()).execute()) {
            return new Reply(r.code(), r.body().string());
        } catch (IOException | RuntimeException e) {
            return Reply.NONE;
        }
    }

    private void readAll() {
        model = models();
        // /v1/models may have named the server already; ask the rest only where it did not.
        if (kind == ServerKind.UNKNOWN || kind == ServerKind.LLAMA_CPP) llamaCpp();
        if (kind == ServerKind.UNKNOWN || kind == ServerKind.SGLANG) sglang();
        if (kind == ServerKind.UNKNOWN) tgi();
        if (kind == ServerKind.UNKNOWN) ollama(model);
        if (kind == ServerKind.UNKNOWN || kind == ServerKind.VLLM) vllm();
    }

    /** {@code GET /v1/models}: the served name; vLLM's and SGLang's max_model_len, llama.cpp's meta.n_ctx. */
    private String models() {
        JsonNode m = json(source.get("/v1/models")).path("data").path(0);
        if (m.isMissingNode()) return null;
        String owner = m.path("owned_by").asText("");
        if (owner.equals("vllm")) kind = ServerKind.VLLM;
        if (owner.equals("sglang")) kind = ServerKind.SGLANG;
        if (owner.equals("llamacpp")) kind = ServerKind.LLAMA_CPP;
        number(m.path("max_model_len"), Key.CONTEXT_PER_REQUEST, "GET /v1/models: max_model_len");
        number(m.path("meta").path("n_ctx"), Key.CONTEXT_PER_REQUEST, "GET /v1/models: meta.n_ctx");
        return m.path("id").isTextual() ? m.path("id").asText() : null;
    }

    /** llama.cpp: {@code /props} (total_slots, the context per slot), else the entries of {@code /slots}. */
    private void llamaCpp() {
        JsonNode p = json(source.get("/props"));
        if (p.has("total_slots") || p.has("default_generation_settings")) {
            kind = ServerKind.LLAMA_CPP;
            number(p.path("total_slots"), Key.MAX_RUNNING, "GET /props: total_slots");
            number(
                    p.path("default_generation_settings").path("n_ctx"),
                    Key.CONTEXT_PER_REQUEST,
                    "GET /props: default_generation_settings.n_ctx");
            if (p.path("build_info").isTextual()) version = p.path("build_info").asText();
        }
        if (kind != ServerKind.LLAMA_CPP) return;
        JsonNode slots = json(source.get("/slots"));
        if (slots.isArray() && !slots.isEmpty()) {
            put(Key.MAX_RUNNING, slots.size(), "GET /slots: entries");
            number(slots.path(0).path("n_ctx"), Key.CONTEXT_PER_REQUEST, "GET /slots: n_ctx");
            long ctx = get(Key.CONTEXT_PER_REQUEST);
            if (ctx > 0) put(Key.CONTEXT_TOTAL, ctx * slots.size(), "GET /slots: n_ctx × entries");
        }
    }

    /** SGLang: {@code /server_info} (newer) or {@code /get_server_info}, ServerArgs flat beside the scheduler's. */
    private void sglang() {
        String path = "/server_info";
        JsonNode s = json(source.get(path));
        if (!s.has("max_total_num_tokens") && !s.has("internal_states")) {
            path = "/get_server_info";
            s = json(source.get(path));
        }
        if (!s.has("max_total_num_tokens") && !s.has("internal_states")) return;
        kind = ServerKind.SGLANG;
        String at = "GET " + path + ": ";
        JsonNode effective = s.path("internal_states").path(0).path("effective_max_running_requests_per_dp");
        if (effective.canConvertToLong() && effective.asLong() > 0) {
            long dp = Math.max(1, s.path("dp_size").asLong(1));
            put(
                    Key.MAX_RUNNING,
                    effective.asLong() * dp,
                    at + "internal_states[0].effective_max_running_requests_per_dp");
        }
        number(s.path("max_running_requests"), Key.MAX_RUNNING, at + "max_running_requests");
        number(s.path("context_length"), Key.CONTEXT_PER_REQUEST, at + "context_length");
        number(s.path("max_req_input_len"), Key.MAX_INPUT_TOKENS, at + "max_req_input_len");
        number(s.path("chunked_prefill_size"), Key.MAX_BATCHED_TOKENS, at + "chunked_prefill_size");
        number(s.path("max_total_num_tokens"), Key.KV_TOKENS, at + "max_total_num_tokens");
        number(s.path("page_size"), Key.BLOCK_SIZE, at + "page_size");
        if (s.path("disable_radix_cache").isBoolean()) {
            put(Key.PREFIX_CACHING, s.path("disable_radix_cache").asBoolean() ? 0 : 1, at + "disable_radix_cache");
        }
        if (s.path("version").isTextual()) version = s.path("version").asText();
    }

    /** TGI: {@code /info} (max_input_length before v2.1; the batch fields before v2.3). */
    private void tgi() {
        JsonNode i = json(source.get("/info"));
        if (!i.has("max_concurrent_requests") && !i.has("max_total_tokens")) return;
        kind = ServerKind.TGI;
        number(i.path("max_concurrent_requests"), Key.MAX_CONCURRENT, "GET /info: max_concurrent_requests");
        number(i.path("max_total_tokens"), Key.CONTEXT_PER_REQUEST, "GET /info: max_total_tokens");
        number(i.path("max_input_tokens"), Key.MAX_INPUT_TOKENS, "GET /info: max_input_tokens");
        number(i.path("max_input_length"), Key.MAX_INPUT_TOKENS, "GET /info: max_input_length");
        number(i.path("max_batch_size"), Key.MAX_RUNNING, "GET /info: max_batch_size");
        number(i.path("max_batch_total_tokens"), Key.KV_TOKENS, "GET /info: max_batch_total_tokens");
        if (i.path("version").isTextual()) version = i.path("version").asText();
    }

    /** Ollama: {@code /api/version}, the loaded model's context in {@code /api/ps}, else num_ctx in /api/show. */
    private void ollama(String model) {
        JsonNode v = json(source.get("/api/version"));
        if (!v.path("version").isTextual()) return;
        kind = ServerKind.OLLAMA;
        version = v.path("version").asText();
        for (JsonNode m : json(source.get("/api/ps")).path("models")) {
            if (model == null
                    || model.equals(m.path("name").asText())
                    || model.equals(m.path("model").asText())) {
                number(m.path("context_length"), Key.CONTEXT_PER_REQUEST, "GET /api/ps: context_length");
                break;
            }
        }
        if (get(Key.CONTEXT_PER_REQUEST) > 0 || model == null) return;
        JsonNode show = json(source.post(
                "/api/show", JSON.createObjectNode().put("model", model).toString()));
        Matcher m = Pattern.compile("(?m)^num_ctx\\s+(\\d+)")
                .matcher(show.path("parameters").asText(""));
        if (m.find()) put(Key.CONTEXT_PER_REQUEST, Long.parseLong(m.group(1)), "POST /api/show: parameters num_ctx");
    }

    /** vLLM: the cache config in {@code /metrics}, the version in {@code /version}. */
    private void vllm() {
        Reply metrics = source.get("/metrics");
        Matcher m = metrics.ok() ? CACHE_INFO.matcher(metrics.body()) : null;
        if (m != null && m.find()) {
            kind = ServerKind.VLLM;
            Matcher l = LABEL.matcher(m.group(1));
            String at = "GET /metrics: vllm:cache_config_info ";
            while (l.find()) {
                String value = l.group(2);
                switch (l.group(1)) {
                    case "num_gpu_blocks" -> parsed(value, Key.KV_BLOCKS, at + "num_gpu_blocks");
                    case "block_size" -> parsed(value, Key.BLOCK_SIZE, at + "block_size");
                    case "enable_prefix_caching" ->
                        put(Key.PREFIX_CACHING, value.equalsIgnoreCase("true") ? 1 : 0, at + "enable_prefix_caching");
                    default -> {}
                }
            }
        }
        if (kind == ServerKind.VLLM) {
            JsonNode v = json(source.get("/version"));
            if (v.path("version").isTextual()) version = v.path("version").asText();
        }
    }

    private void parsed(String value, Key key, String where) {
        try {
            long v = Math.round(Double.parseDouble(value));
            if (v > 0) put(key, v, where);
        } catch (NumberFormatException e) {
            // "None" and the like: not stated
        }
    }

    private void number(JsonNode n, Key key, String where) {
        if (n.canConvertToLong() && n.isNumber() && n.asLong() > 0) put(key, n.asLong(), where);
    }

    /** The first source of a key wins. */
    private void put(Key key, long value, String where) {
        if (get(key) < 0) facts.add(new Fact(key, value, where));
    }

    private long get(Key key) {
        for (Fact f : facts) if (f.key() == key) return f.value();
        return -1;
    }

    private static JsonNode json(Reply r) {
        if (!r.ok()) return JSON.missingNode();
        try {
            JsonNode n = JSON.readTree(r.body());
            return n == null ? JSON.missingNode() : n;
        } catch (IOException e) {
            return JSON.missingNode();
        }
    }
}
