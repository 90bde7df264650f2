package dev.headroom.model;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What a server says about itself before any load — its limits, each with the endpoint and field it was read from —
 * so that calibrate sizes its probes to the server and checks what it measures against what the server claims.
 * Read once per command ({@code probe}'s {@code ServerIntrospection} over HTTP, or the simulator's own); a value the
 * server does not say is absent and, where it matters, measured.
 *
 * @param kind   which server answered, from which introspection endpoints answered
 * @param model  the model it serves, as {@code /v1/models} lists it first (null when it does not say)
 * @param facts  each value read, at most one per key (the first source that gave it)
 */
public record ServerFacts(ServerKind kind, String version, String model, List<Fact> facts) {

    /** The servers whose introspection endpoints Headroom reads (docs/calibrate.md has the table). */
    public enum ServerKind {
        VLLM,
        SGLANG,
        LLAMA_CPP,
        TGI,
        OLLAMA,
        /** None of the endpoints answered (a hosted API, a proxy, another server). */
        UNKNOWN;

        public String wireName() {
            return this == LLAMA_CPP ? "llama.cpp" : name().toLowerCase(Locale.ROOT);
        }
    }

    /** A limit a server can state. */
    public enum Key {
        /** Requests decoded at once at most: llama.cpp's slots, vLLM's max_num_seqs, TGI's max batch size. */
        MAX_RUNNING("max_running_requests"),
        /** Requests accepted at once before refusing (TGI's max_concurrent_requests, Ollama's queue). */
        MAX_CONCURRENT("max_concurrent_requests"),
        /** Prompt plus answer one request may hold: per slot on llama.cpp, max_model_len on vLLM. */
        CONTEXT_PER_REQUEST("context_per_request"),
        /** The context the whole server holds (llama.cpp's n_ctx over all slots). */
        CONTEXT_TOTAL("context_total"),
        /** Longest prompt accepted (TGI's max_input_tokens). */
        MAX_INPUT_TOKENS("max_input_tokens"),
        /** Tokens one engine step may process (vLLM's max_num_batched_tokens, SGLang's chunked_prefill_size). */
        MAX_BATCHED_TOKENS("max_batched_tokens"),
        /** Tokens the KV cache holds in all (SGLang's max_total_num_tokens, TGI's max_batch_total_tokens). */
        KV_TOKENS("kv_cache_tokens"),
        /** KV-cache blocks (vLLM's num_gpu_blocks). */
        KV_BLOCKS("kv_cache_blocks"),
        /** Tokens per KV-cache block. */
        BLOCK_SIZE("kv_block_size"),
        /** 1 when the server caches prompt prefixes, 0 when it says it does not. */
        PREFIX_CACHING("prefix_caching");

        private final String wireName;

        Key(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /** One value and where it was read, e.g. {@code GET /props: total_slots}. */
    public record Fact(Key key, long value, String source) {
        public Fact {
            if (key == null || source == null) throw new IllegalArgumentException("a fact needs a key and a source");
        }
    }

    public ServerFacts {
        if (kind == null) throw new IllegalArgumentException("a server kind is required");
        facts = List.copyOf(facts);
    }

    /** A server that said nothing. */
    public static ServerFacts unknown() {
        return new ServerFacts(ServerKind.UNKNOWN, null, null, List.of());
    }

    /** The value stated for {@code key}, if any. */
    public OptionalLong get(Key key) {
        for (Fact f : facts) if (f.key() == key) return OptionalLong.of(f.value());
        return OptionalLong.empty();
    }

    /** Where {@code key}'s value was read, or null. */
    public String source(Key key) {
        for (Fact f : facts) if (f.key() == key) return f.source();
        return null;
    }

    /** The context one request gets, as stated (the per-request one, else the smaller of total and input bounds). */
    public OptionalLong contextPerRequest() {
        return get(Key.CONTEXT_PER_REQUEST);
    }

    /** The most requests served at once, as stated. */
    public OptionalLong maxRunning() {
        return get(Key.MAX_RUNNING);
    }

    /** One line for the console: the server and every value with its source. */
    public String describe() {
        if (facts.isEmpty())
            return kind == ServerKind.UNKNOWN ? "the server states no limits" : kind.wireName() + " states no limits";
        StringBuilder b = new StringBuilder(kind.wireName());
        if (version != null) b.append(' ').append(version);
        b.append(" states ");
        for (int i = 0; i < facts.size(); i++) {
            Fact f = facts.get(i);
            b.append(i == 0 ? "" : ", ").append(f.key().wireName()).append(' ').append(f.value());
            b.append(" (").append(f.source()).append(')');
        }
        return b.toString();
    }
}
