package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine settings a catalog option fixes beside its hardware and GPUs (as {@code headroom configure} chose them):
 * the batch cap, the step's token budget and the number formats. A zero or null setting is the engine's default.
 *
 * @param maxNumSeqs          vLLM's {@code max_num_seqs} (0: default)
 * @param maxNumBatchedTokens vLLM's {@code max_num_batched_tokens}, the chunked-prefill budget (0: default)
 * @param kvCacheDtype        the KV cache's format as vLLM spells it ({@code fp8}, {@code bf16}); null: the model's
 * @param weightDtype         the weights' format ({@code fp8}, {@code int4}, {@code bf16}); null: the model's
 */
public record EngineKnobs(int maxNumSeqs, int maxNumBatchedTokens, String kvCacheDtype, String weightDtype) {
    /** Every setting the engine's default. */
    public static final EngineKnobs DEFAULTS = new EngineKnobs(0, 0, null, null);

    public EngineKnobs {
        if (maxNumSeqs < 0) throw new BadInputException("max_num_seqs must be >= 1, got " + maxNumSeqs);
        if (maxNumBatchedTokens < 0) {
            throw new BadInputException("max_num_batched_tokens must be >= 16, got " + maxNumBatchedTokens);
        }
    }

    /** The settings that differ from the engine's defaults, as {@code key value} for a line of text. */
    public String describe() {
        List<String> out = new ArrayList<>();
        if (maxNumSeqs > 0) out.add("max_num_seqs " + maxNumSeqs);
        if (maxNumBatchedTokens > 0) out.add("max_num_batched_tokens " + maxNumBatchedTokens);
        if (kvCacheDtype != null) out.add("kv_cache_dtype " + kvCacheDtype);
        if (weightDtype != null) out.add("weight_dtype " + weightDtype);
        return String.join(", ", out);
    }
}
