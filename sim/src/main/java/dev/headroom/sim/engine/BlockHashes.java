package dev.headroom.sim.engine;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The hash chain that keys a sequence's KV blocks in the prefix cache, as vLLM keys them: block i's hash covers its
 * own {@code blockSize} token ids and block i−1's hash, so two prompts share a cached block only when every token
 * up to its end is the same. Only full blocks get a hash. A {@link Chain} also grows with the tokens a sequence
 * generates, as vLLM caches the blocks an answer fills: a conversation's next turn, which resends that answer, finds
 * them cached.
 */
public final class BlockHashes {
    private BlockHashes() {}

    private static final long START = 0x9E3779B97F4A7C15L;

    /** The chain over {@code tokens}' full blocks. */
    public static long[] of(int[] tokens, int blockSize) {
        long[] hashes = new long[tokens.length / blockSize];
        long h = START;
        for (int b = 0; b < hashes.length; b++) {
            h = next(h, tokens, b * blockSize, blockSize);
            hashes[b] = h;
        }
        return hashes;
    }

    private static long next(long h, int[] tokens, int from, int blockSize) {
        for (int i = from; i < from + blockSize; i++) h = mix(h ^ tokens[i]);
        return h;
    }

    /**
     * A sequence's chain: its prompt's full blocks, then, as it generates, the blocks its output completes (the
     * prompt's last partial block first). Not thread-safe: the engine's thread owns it.
     */
    public static final class Chain {
        private final int blockSize;
        private final IntUnaryOperator outputIds;
        private long[] hashes;
        private int length;
        private final int[] pending;
        private int pendingLength;

        private Chain(long[] hashes, int blockSize, int[] pending, int pendingLength, IntUnaryOperator outputIds) {
            this.hashes = hashes;
            this.length = hashes.length;
            this.blockSize = blockSize;
            this.pending = pending;
            this.pendingLength = pendingLength;
            this.outputIds = outputIds;
        }

        /** A fixed chain (its output's tokens are nobody else's, so they are not hashed). */
        public static Chain fixed(long[] hashes) {
            return new Chain(hashes, 1, null, 0, null);
        }

        /**
         * The chain of a prompt of {@code tokens}, growing with output token {@code i}'s id {@code outputIds(i)}
         * (null: fixed).
         */
        public static Chain of(int[] tokens, int blockSize, IntUnaryOperator outputIds) {
            long[] h = BlockHashes.of(tokens, blockSize);
            int[] pending = new int[blockSize];
            int rest = tokens.length - h.length * blockSize;
            System.arraycopy(tokens, h.length * blockSize, pending, 0, rest);
            return new Chain(h, blockSize, pending, rest, outputIds);
        }

        /** Full blocks hashed so far. */
        public int length() {
            return length;
        }

        /** Block {@code b}'s hash. */
        public long get(int b) {
            return hashes[b];
        }

        /** Output token {@code index} was generated: the block it completes, if any, gets its hash. */
        void generated(int index) {
            if (outputIds == null) return;
            pending[pendingLength++] = outputIds.applyAsInt(index);
            if (pendingLength < blockSize) return;
            if (length == hashes.length) hashes = Arrays.copyOf(hashes, Math.max(4, length * 2));
            hashes[length] = next(length == 0 ? START : hashes[length - 1], pending, 0, blockSize);
            length++;
            pendingLength = 0;
        }
    }

    /** A chain of {@code blocks} hashes shared with no other prompt: a prompt whose tokens are its own. */
    public static long[] unique(long seed, long id, int promptTokens, int blockSize) {
        long[] hashes = new long[promptTokens / blockSize];
        long h = mix(mix(seed) ^ id);
        for (int b = 0; b < hashes.length; b++) hashes[b] = h = mix(h + b);
        return hashes;
    }

    /** SplitMix64's finaliser: a well-spread 64-bit hash of {@code z}. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
