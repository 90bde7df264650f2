package dev.headroom.sim.engine;

/**
 * One request inside the engine. Like vLLM V1 there is no separate prefill/decode state: each step schedules
 * {@code tokens() - computed} tokens (capped by the budget), and a sequence whose KV cache has caught up
 * samples its next output token.
 */
public final class Sequence {
    final long id;
    final int promptTokens;
    final int outputTokens;
    final long arrivalNanos;
    final SequenceListener listener;
    /** Hash chain of its full KV blocks ({@link BlockHashes.Chain}), or null when its tokens are not known. */
    final BlockHashes.Chain blockHashes;

    int computed;
    /** Leading prompt blocks this sequence references in the prefix cache. */
    int registered;
    /** Prompt tokens served from the prefix cache when it was first scheduled; -1 before that. */
    volatile int cachedTokens = -1;

    int generated;
    int blocks;
    int preemptions;
    boolean aborted;
    /** Produced its last token; leaves the running batch at the end of the step. */
    boolean done;

    long firstScheduledNanos = -1;

    /**
     * @param outputTokens how many tokens it will produce before finishing (already resolved from max_tokens,
     *                     ignore_eos and the EOS distribution)
     */
    public Sequence(long id, int promptTokens, int outputTokens, long arrivalNanos, SequenceListener listener) {
        this(id, promptTokens, outputTokens, arrivalNanos, listener, (BlockHashes.Chain) null);
    }

    /** @param blockHashes the prompt's block hash chain, so the prefix cache can serve it (null: never cached) */
    public Sequence(
            long id,
            int promptTokens,
            int outputTokens,
            long arrivalNanos,
            SequenceListener listener,
            long[] blockHashes) {
        this(
                id,
                promptTokens,
                outputTokens,
                arrivalNanos,
                listener,
                blockHashes == null ? null : BlockHashes.Chain.fixed(blockHashes));
    }

    /** @param chain its block hash chain, growing with its output when it knows the output's tokens (null: none) */
    public Sequence(
            long id,
            int promptTokens,
            int outputTokens,
            long arrivalNanos,
            SequenceListener listener,
            BlockHashes.Chain chain) {
        if (promptTokens < 1) throw new IllegalArgumentException("prompt must have >= 1 token");
        if (outputTokens < 1) throw new IllegalArgumentException("output must be >= 1 token");
        this.id = id;
        this.promptTokens = promptTokens;
        this.outputTokens = outputTokens;
        this.arrivalNanos = arrivalNanos;
        this.listener = listener;
        this.blockHashes = chain;
    }

    /**
     * A request a prefill engine has prefilled, its first token sampled and its prompt's KV cache moved here: it
     * starts decoding at once (token 1 next), its prompt's blocks allocated on admission but not computed again.
     */
    public static Sequence transferred(
            long id, int promptTokens, int outputTokens, long arrivalNanos, SequenceListener listener) {
        Sequence s = new Sequence(id, promptTokens, outputTokens, arrivalNanos, listener);
        s.generated = 1;
        s.computed = promptTokens;
        return s;
    }

    /** Prompt plus output so far: what the KV cache must hold. */
    int tokens() {
        return promptTokens + generated;
    }

    public long id() {
        return id;
    }

    public int promptTokens() {
        return promptTokens;
    }

    public int outputTokens() {
        return outputTokens;
    }

    public int generated() {
        return generated;
    }

    public int preemptions() {
        return preemptions;
    }
    /** Prompt tokens the prefix cache served at its first scheduling (0 when none), or -1 before it. */
    public int cachedTokens() {
        return cachedTokens;
    }

    public long arrivalNanos() {
        return arrivalNanos;
    }
    /** When the scheduler first admitted it into a batch, or -1. */
    public long firstScheduledNanos() {
        return firstScheduledNanos;
    }
}
