package dev.headroom.sim;

import dev.headroom.model.BadInputException;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.sim.engine.OverContext;
import dev.headroom.sim.profile.HardwareProfile;
import java.util.Locale;

/**
 * The engine settings each server the simulator imitates runs with by default, where they differ from vLLM's
 * (each from the server's own source and docs; docs/simulator.md): llama.cpp's few slots, each with its share of
 * the context, refusing a prompt that fills it and stopping an answer at it, prompts batched with the decodes
 * within {@code n_batch}; Ollama's the same runner with 4 parallel requests of {@code num_ctx} 4096 each, cutting
 * what does not fit; TGI's whole prompts in steps of their own and its admission limit; SGLang's prefill in steps
 * of its own, decided a step ahead. A null field keeps the simulator's own default.
 *
 * @param admitted requests admitted at once, running and waiting (TGI's max_concurrent_requests): beyond, refused
 */
public record Imitation(
        ServerKind kind,
        Integer maxNumSeqs,
        Integer maxNumBatchedTokens,
        Integer contextPerRequest,
        OverContext overContext,
        Boolean chunkedPrefill,
        Boolean mixedBatches,
        Boolean overlapScheduling,
        Integer admitted) {

    /** The defaults of {@code kind}'s server. */
    public static Imitation of(ServerKind kind) {
        return switch (kind) {
            case VLLM, UNKNOWN -> new Imitation(kind, null, null, null, OverContext.REFUSE, null, null, null, null);
            // llama-server -c 4096 -np 4: four slots of 1,024 tokens; prompts join the decodes in n_batch 2048.
            case LLAMA_CPP -> new Imitation(kind, 4, 2048, 1024, OverContext.REFUSE_PROMPT, true, true, false, null);
            // Ollama runs llama-server with -np OLLAMA_NUM_PARALLEL (4 up to 0.6.6) and num_ctx per request.
            case OLLAMA -> new Imitation(kind, 4, 2048, 4096, OverContext.TRUNCATE, true, true, false, null);
            // TGI: --max-total-tokens 8192 as commonly deployed, 128 admitted at once, whole prompts.
            case TGI -> new Imitation(kind, 32, null, 8192, OverContext.REFUSE, false, false, false, 128);
            case SGLANG -> new Imitation(kind, null, null, null, OverContext.REFUSE, true, false, true, null);
        };
    }

    /**
     * The defaults of {@code kind}'s server on {@code hw}, where they depend on the GPU: vLLM's API server (V1, 0.8.4
     * and later; {@code EngineArgs.get_batch_defaults}) takes 1,024 sequences in steps of 8,192 tokens on a GPU of
     * 70 GiB or more that is not an A100, and 256 in steps of 2,048 on every other.
     */
    public static Imitation of(ServerKind kind, HardwareProfile hw) {
        Imitation i = of(kind);
        if (kind != ServerKind.VLLM && kind != ServerKind.UNKNOWN) return i;
        boolean large =
                hw.memoryGb() * 1e9 >= 70 * Math.pow(2, 30) && !hw.name().startsWith("a100");
        return new Imitation(
                kind,
                large ? 1024 : 256,
                large ? 8192 : 2048,
                i.contextPerRequest(),
                i.overContext(),
                i.chunkedPrefill(),
                i.mixedBatches(),
                i.overlapScheduling(),
                i.admitted());
    }

    /** A server kind as {@code --sim-server} spells it. */
    public static ServerKind parseKind(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "vllm" -> ServerKind.VLLM;
            case "sglang" -> ServerKind.SGLANG;
            case "llama.cpp", "llamacpp", "llama-cpp" -> ServerKind.LLAMA_CPP;
            case "tgi" -> ServerKind.TGI;
            case "ollama" -> ServerKind.OLLAMA;
            default ->
                throw new BadInputException(
                        "bad {sim-server} '" + s + "': valid values are vllm, sglang, llama.cpp, tgi, ollama");
        };
    }
}
