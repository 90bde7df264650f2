package dev.headroom.sim.engine;

import dev.headroom.model.BadInputException;
import java.util.Locale;

/** What a server does with a request that does not fit the context one request gets. */
public enum OverContext {
    /** Prompt plus max_tokens over the context is refused, HTTP 400 (vLLM, SGLang; TGI answers 422). */
    REFUSE,
    /**
     * Only a prompt that fills the context is refused (llama.cpp's {@code exceed_context_size_error}); an answer
     * that would overflow stops at the context, finish reason {@code length}.
     */
    REFUSE_PROMPT,
    /** Nothing is refused: the prompt is cut to fit and the answer stops at the context (Ollama's default). */
    TRUNCATE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static OverContext parse(String s) {
        for (OverContext o : values()) if (o.wireName().equals(s.trim().toLowerCase(Locale.ROOT))) return o;
        throw new BadInputException("bad over_context '" + s + "': valid values are refuse, refuse-prompt, truncate");
    }

    /**
     * The output a request gets at most, or -1 when it is refused.
     *
     * @param isl        prompt tokens (after any truncation)
     * @param requested  max_tokens asked for
     * @param context    tokens one request may hold
     */
    public int allowedOutput(int isl, int requested, int context) {
        return switch (this) {
            case REFUSE -> isl + requested <= context ? requested : -1;
            case REFUSE_PROMPT -> isl >= context ? -1 : Math.min(requested, context - isl);
            case TRUNCATE -> Math.max(1, Math.min(requested, context - Math.min(isl, context - 1)));
        };
    }

    /** The prompt tokens a request keeps. */
    public int keptPrompt(int isl, int context) {
        return this == TRUNCATE ? Math.min(isl, context - 1) : isl;
    }
}
