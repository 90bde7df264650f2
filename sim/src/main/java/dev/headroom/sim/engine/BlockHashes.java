package dev.headroom.sim.engine;

/**
 * The hash chain that keys a prompt's KV blocks in the prefix cache, as vLLM keys them: block i's hash covers its
 * own {@code blockSize} token ids and block i−1's hash, so two prompts share a cached block only when every token
 * up to its end is the same. Only full blocks get a hash.
 */
public final class BlockHashes {
    private BlockHashes() {}

    /** The chain over {@code tokens}' full blocks. */
    public static long[] of(int[] tokens, int blockSize) {
        long[] hashes = new long[tokens.length / blockSize];
        long h = 0x9E3779B97F4A7C15L;
        for (int b = 0; b < hashes.length; b++) {
            for (int i = b * blockSize; i < (b + 1) * blockSize; i++) h = mix(h ^ tokens[i]);
            hashes[b] = h;
        }
        return hashes;
    }

    /** A chain of {@code blocks} hashes shared with no other prompt: a prompt whose tokens are its own. */
    public static long[] unique(long seed, long id, int promptTokens, int blockSize) {
        long[] hashes = new long[promptTokens / blockSize];
        long h = mix(mix(seed) ^ id);
        for (int b = 0; b < hashes.length; b++) hashes[b] = h = mix(h + b);
        return hashes;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
