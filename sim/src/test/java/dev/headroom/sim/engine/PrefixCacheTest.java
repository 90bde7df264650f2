package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.profile.Profiles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Automatic prefix caching in the engine, as vLLM does it: full blocks, a hash chain, LRU eviction of free blocks. */
class PrefixCacheTest {
    private static final int BLOCK = 16;

    private static EngineConfig config(boolean caching) {
        return EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0)
                .withPrefixCaching(caching);
    }

    /** A config whose KV cache holds only about {@code blocks} blocks. */
    private static EngineConfig small(int blocks) {
        EngineConfig c = config(true);
        for (double u = 0.9; u > 0.01; u -= 0.0001) {
            EngineConfig t = c.toBuilder()
                    .blockSize(BLOCK)
                    .gpuMemoryUtilization(u)
                    .noise(0, 0, 0)
                    .seed(1)
                    .build();
            if (t.kvBlocks() <= blocks) return t;
        }
        throw new AssertionError("no utilisation gives " + blocks + " blocks");
    }

    private static int[] tokens(int seed, int n) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) t[i] = seed * 100_000 + i;
        return t;
    }

    /** First-token time of a sequence run alone; its cached tokens are on the sequence. */
    private static final class Timing implements SequenceListener {
        long firstToken = -1;
        boolean done;

        @Override
        public void onToken(Sequence seq, int index, long nanos) {
            if (index == 0) firstToken = nanos;
        }

        @Override
        public void onFinish(Sequence seq, long nanos) {
            done = true;
        }
    }

    /** Runs one prompt alone on the engine from time {@code start}; returns its time to first token. */
    private static long runAlone(Engine e, Sequence s, Timing t, long start) {
        assertTrue(e.submit(s));
        long now = start;
        while (!t.done) {
            Engine.Step step = e.planStep(now);
            now += step.nanos();
            e.finishStep(step, now);
        }
        return t.firstToken - start;
    }

    private static Sequence seq(long id, int[] prompt, Timing t) {
        return new Sequence(id, prompt.length, 4, 0, t, BlockHashes.of(prompt, BLOCK));
    }

    @Test
    void aRepeatedPromptIsServedFromTheCacheAndOnlyItsTailIsPrefilled() {
        Engine e = new Engine(config(true));
        int[] prompt = tokens(1, 4000);
        Timing first = new Timing();
        Sequence a = seq(1, prompt, first);
        long coldTtft = runAlone(e, a, first, 0);
        Timing second = new Timing();
        Sequence b = seq(2, prompt, second);
        long warmTtft = runAlone(e, b, second, 1_000_000_000L);
        assertEquals(0, a.cachedTokens());
        // All but the last token hit: the last one is computed again for its logits, so 249 of 250 blocks.
        assertEquals((4000 - 1) / BLOCK * BLOCK, b.cachedTokens());
        assertTrue(warmTtft < coldTtft / 5, "cold " + coldTtft + " ns, warm " + warmTtft + " ns");
        assertEquals(8000, e.prefixCacheQueries());
        assertEquals(b.cachedTokens(), e.prefixCacheHits());
    }

    @Test
    void promptsShareOnlyTheFullBlocksOfTheirCommonPrefix() {
        Engine e = new Engine(config(true));
        int[] a = tokens(1, 300);
        int[] b = a.clone();
        for (int i = 100; i < b.length; i++) b[i] = -i; // same first 100 tokens: six full blocks
        Timing ta = new Timing();
        runAlone(e, seq(1, a, ta), ta, 0);
        Timing tb = new Timing();
        Sequence sb = seq(2, b, tb);
        runAlone(e, sb, tb, 1_000_000_000L);
        assertEquals(6 * BLOCK, sb.cachedTokens());
    }

    @Test
    void withCachingOffNothingIsServedFromIt() {
        Engine e = new Engine(config(false));
        int[] prompt = tokens(1, 400);
        Timing t1 = new Timing();
        runAlone(e, seq(1, prompt, t1), t1, 0);
        Timing t2 = new Timing();
        Sequence again = seq(2, prompt, t2);
        runAlone(e, again, t2, 1_000_000_000L);
        assertEquals(0, again.cachedTokens());
        assertEquals(0, e.prefixCacheHits());
    }

    @Test
    void whenTheCacheIsFullTheLeastRecentlyFreedBlocksAreEvictedFirst() {
        EngineConfig c = small(64);
        Engine e = new Engine(c);
        int blocks = c.kvBlocks();
        // Three 25-block prompts through a cache of at most 64 blocks: the third evicts the first's, from its end.
        List<int[]> prompts = new ArrayList<>();
        for (int p = 0; p < 3; p++) prompts.add(tokens(p + 1, 25 * BLOCK));
        long t = 0;
        for (int p = 0; p < 3; p++) {
            Timing timing = new Timing();
            runAlone(e, seq(p, prompts.get(p), timing), timing, t);
            t += 1_000_000_000L;
        }
        Timing tb = new Timing();
        Sequence secondAgain = seq(10, prompts.get(1), tb);
        runAlone(e, secondAgain, tb, t);
        assertEquals(24 * BLOCK, secondAgain.cachedTokens(), "the second prompt, freed later, is still cached");
        Timing ta = new Timing();
        Sequence firstAgain = seq(11, prompts.get(0), ta);
        runAlone(e, firstAgain, ta, t + 1_000_000_000L);
        assertTrue(
                firstAgain.cachedTokens() < 24 * BLOCK,
                blocks + " blocks: the first prompt's tail was evicted, " + firstAgain.cachedTokens()
                        + " tokens still hit");
        assertTrue(firstAgain.cachedTokens() > 0, "its head, freed last, was evicted last");
    }
}
