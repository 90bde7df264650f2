package dev.headroom.sim.engine;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The KV cache's blocks with automatic prefix caching as vLLM does it: a full block of tokens (prompt, and output
 * once computed) is keyed by a hash chained over every token before it ({@link BlockHashes}); a request whose
 * prompt starts with cached blocks takes them instead of prefilling them again; a block nobody references stays
 * cached and free, and the least recently freed one is evicted when a block is needed. With caching off it is a
 * plain count of free blocks. Not thread-safe: the engine's thread owns it.
 */
final class PrefixCache {
    /** A cached block and how many running sequences reference it. */
    private static final class Block {
        final long hash;
        int refs;

        Block(long hash) {
            this.hash = hash;
        }
    }

    private final boolean enabled;
    private final int blockSize;
    private final Map<Long, Block> byHash = new HashMap<>();
    /** Cached blocks with no reference, least recently freed first: free, and evicted in this order. */
    private final LinkedHashMap<Long, Block> evictable = new LinkedHashMap<>();

    private int empty;
    private long queries;
    private long hits;

    PrefixCache(int totalBlocks, int blockSize, boolean enabled) {
        this.empty = totalBlocks;
        this.blockSize = blockSize;
        this.enabled = enabled;
    }

    /** Blocks that can be allocated now: empty ones and cached ones nobody references. */
    int available() {
        return empty + evictable.size();
    }

    /** Cached prompt blocks at the head of {@code seq}'s prompt, stopping one token short of the whole prompt. */
    int hitBlocks(Sequence seq) {
        if (!enabled || seq.blockHashes == null) return 0;
        // When every prompt token hits, the last one is computed again for its logits (vLLM does the same).
        int max = Math.min(seq.blockHashes.length(), (seq.promptTokens - 1) / blockSize);
        int n = 0;
        while (n < max && byHash.containsKey(seq.blockHashes.get(n))) n++;
        return n;
    }

    /** Of the first {@code n} hit blocks, those now free (taking them lowers {@link #available()}). */
    int freeAmongHits(Sequence seq, int n) {
        int free = 0;
        for (int i = 0; i < n; i++) if (byHash.get(seq.blockHashes.get(i)).refs == 0) free++;
        return free;
    }

    /** Gives {@code seq} its first {@code n} prompt blocks from the cache, as computed, and counts the query. */
    void takeHits(Sequence seq, int n) {
        if (enabled) {
            queries += seq.promptTokens;
            hits += (long) n * blockSize;
        }
        for (int i = 0; i < n; i++) {
            Block b = byHash.get(seq.blockHashes.get(i));
            if (b.refs++ == 0) evictable.remove(b.hash);
        }
        seq.registered = n;
        seq.blocks = n;
        // A KV cache moved here from a prefill engine is computed already.
        seq.computed = Math.max(seq.computed, n * blockSize);
        if (seq.cachedTokens < 0) seq.cachedTokens = n * blockSize;
    }

    /** Allocates {@code n} new blocks to {@code seq}: empty ones first, then the least recently freed cached ones. */
    void allocate(Sequence seq, int n) {
        if (n <= 0) return;
        if (n > available()) throw new IllegalStateException("allocating " + n + " blocks, " + available() + " free");
        int fromEmpty = Math.min(n, empty);
        empty -= fromEmpty;
        for (int i = fromEmpty; i < n; i++) {
            var eldest = evictable.entrySet().iterator();
            Block b = eldest.next().getValue();
            eldest.remove();
            byHash.remove(b.hash);
        }
        seq.blocks += n;
    }

    /**
     * Caches the blocks {@code seq} has now fully computed, its output's too when its chain knows their tokens. A
     * block another sequence computed and cached meanwhile (two prompts with the same head admitted in one step) is
     * the same content: {@code seq} takes that one and frees its own copy, and caches the blocks after it — as vLLM
     * caches every full block, duplicates included, so a session's history stays reachable past a shared system
     * prompt.
     */
    void register(Sequence seq) {
        if (!enabled || seq.blockHashes == null) return;
        int full = Math.min(seq.blockHashes.length(), seq.computed / blockSize);
        while (seq.registered < full) {
            long h = seq.blockHashes.get(seq.registered);
            Block b = byHash.get(h);
            if (b != null) {
                if (b.refs++ == 0) evictable.remove(h);
                empty++; // its own copy
            } else {
                b = new Block(h);
                b.refs = 1;
                byHash.put(h, b);
            }
            seq.registered++;
        }
    }

    /** Returns every block of {@code seq}: private ones empty, its cached ones free but kept (its last block first). */
    void release(Sequence seq) {
        int own = seq.blocks - seq.registered;
        empty += own;
        for (int i = seq.registered - 1; i >= 0; i--) {
            Block b = byHash.get(seq.blockHashes.get(i));
            if (--b.refs == 0) evictable.put(b.hash, b);
        }
        seq.blocks = 0;
        seq.registered = 0;
    }

    /** Prompt tokens looked up in the cache so far ({@code vllm:prefix_cache_queries}). */
    long queries() {
        return queries;
    }

    /** Of those, tokens found cached ({@code vllm:prefix_cache_hits}). */
    long hits() {
        return hits;
    }
}
