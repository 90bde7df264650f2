package dev.headroom.sim.http;

import dev.headroom.model.BadInputException;
import dev.headroom.model.ServerFacts.ServerKind;
import java.time.Duration;
import java.util.Locale;

/**
 * How the simulator behaves where real OpenAI-compatible servers differ, so the probe's tests meet each one:
 * the {@code /tokenize} shape it speaks, where it puts the usage of a stream, and how it treats kept-alive
 * connections (llama.cpp closes after a streamed response while its headers say keep-alive; uvicorn, under vLLM and
 * SGLang, closes connections idle for 5 s).
 *
 * @param closeAfterStream close the connection after each streamed response, without saying so in a header
 * @param idleTimeout      a kept-alive connection idle for longer is closed (null: kept until the client closes it).
 *                         Emulated where the JDK server cannot: the next request on it gets the connection closed
 *                         without a response, as a client racing a server's close sees it
 */
public record ServerBehaviour(
        Tokenize tokenize,
        Usage usage,
        boolean closeAfterStream,
        Duration idleTimeout,
        ServerKind imitates,
        ChatTemplate chatTemplate) {

    /** The {@code /tokenize} dialect. */
    public enum Tokenize {
        /**
         * {@code {"prompt"}} or {@code {"messages"}} (chat template applied) → {@code {count, max_model_len, tokens}}.
         */
        VLLM,
        /** {@code {"prompt"}} → {@code {tokens, count, max_model_len}}; no chat form. */
        SGLANG,
        /** {@code {"content", "add_special"}} → {@code {"tokens"}}, and {@code /apply-template}. */
        LLAMA_CPP,
        /** {@code {"inputs"}} → an array of {@code {id, text, start, stop}}, and {@code /chat_tokenize}. */
        TGI,
        /** No tokenize endpoint (as Ollama or a hosted API). */
        NONE;

        public static Tokenize parse(String s) {
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "vllm" -> VLLM;
                case "sglang" -> SGLANG;
                case "llama.cpp", "llamacpp", "llama-cpp" -> LLAMA_CPP;
                case "tgi" -> TGI;
                case "none" -> NONE;
                default ->
                    throw new BadInputException(
                            "bad {tokenize} '" + s + "': valid values are vllm, sglang, llama.cpp, tgi, none");
            };
        }
    }

    /** Where a stream's usage goes when the client asks for it. */
    public enum Usage {
        /** A chunk of its own with empty {@code choices}, after the last token (vLLM, llama.cpp, Ollama). */
        OWN_CHUNK,
        /** Inside the last token's chunk, beside its {@code finish_reason} (TGI). */
        LAST_CHUNK;

        public static Usage parse(String s) {
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "own-chunk" -> OWN_CHUNK;
                case "last-chunk" -> LAST_CHUNK;
                default ->
                    throw new BadInputException("bad {usage} '" + s + "': valid values are own-chunk, last-chunk");
            };
        }
    }

    /** A vLLM-like server with this tokenize shape, usage placement and connection handling. */
    public ServerBehaviour(Tokenize tokenize, Usage usage, boolean closeAfterStream, Duration idleTimeout) {
        this(tokenize, usage, closeAfterStream, idleTimeout, ServerKind.VLLM, ChatTemplate.SIMPLE);
    }

    public ServerBehaviour {
        if (imitates == null) imitates = ServerKind.VLLM;
        if (chatTemplate == null) chatTemplate = ChatTemplate.SIMPLE;
        if (tokenize == null || usage == null)
            throw new IllegalArgumentException("a tokenize shape and a usage placement are required");
        if (idleTimeout != null && (idleTimeout.isNegative() || idleTimeout.isZero())) {
            throw new BadInputException("{idle-timeout} must be > 0, got " + idleTimeout);
        }
    }

    /** vLLM's: its /tokenize, usage in a chunk of its own, connections kept open. */
    public static ServerBehaviour vllm() {
        return new ServerBehaviour(Tokenize.VLLM, Usage.OWN_CHUNK, false, null);
    }

    /**
     * As {@code kind}'s server behaves by default: its /tokenize shape, where its stream's usage goes, and how it
     * treats connections (llama.cpp closing after each stream, as a server the product side measured did).
     */
    public static ServerBehaviour imitating(ServerKind kind) {
        return switch (kind) {
            case VLLM, UNKNOWN -> vllm();
            case SGLANG -> new ServerBehaviour(Tokenize.SGLANG, Usage.OWN_CHUNK, false, null, kind, null);
            case LLAMA_CPP -> new ServerBehaviour(Tokenize.LLAMA_CPP, Usage.OWN_CHUNK, true, null, kind, null);
            case TGI -> new ServerBehaviour(Tokenize.TGI, Usage.LAST_CHUNK, false, null, kind, null);
            case OLLAMA -> new ServerBehaviour(Tokenize.NONE, Usage.OWN_CHUNK, false, null, kind, null);
        };
    }

    public ServerBehaviour withTokenize(Tokenize t) {
        return new ServerBehaviour(t, usage, closeAfterStream, idleTimeout, imitates, chatTemplate);
    }

    public ServerBehaviour withUsage(Usage u) {
        return new ServerBehaviour(tokenize, u, closeAfterStream, idleTimeout, imitates, chatTemplate);
    }

    public ServerBehaviour withCloseAfterStream(boolean close) {
        return new ServerBehaviour(tokenize, usage, close, idleTimeout, imitates, chatTemplate);
    }

    public ServerBehaviour withChatTemplate(ChatTemplate t) {
        return new ServerBehaviour(tokenize, usage, closeAfterStream, idleTimeout, imitates, t);
    }

    public ServerBehaviour withIdleTimeout(Duration d) {
        return new ServerBehaviour(tokenize, usage, closeAfterStream, d, imitates, chatTemplate);
    }
}
