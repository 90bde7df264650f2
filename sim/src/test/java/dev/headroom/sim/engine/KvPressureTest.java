package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.profile.Profiles;
import org.junit.jupiter.api.Test;

/** A burst of long prompts into a KV cache that holds a few of them: what each admission policy does with it. */
class KvPressureTest {
    private static final int PROMPT = 32_000;
    private static final int ANSWER = 100;
    private static final int REQUESTS = 20;

    private static final SequenceListener QUIET = new SequenceListener() {
        @Override
        public void onToken(Sequence seq, int index, long nanos) {}

        @Override
        public void onFinish(Sequence seq, long nanos) {}
    };

    /** Llama 3.1 8B on an H100 with room for five and a half of these requests' KV caches. */
    private static EngineConfig tight() {
        EngineConfig c =
                EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b")).toBuilder()
                        .noise(0, 0, 0)
                        .prefixCaching(false)
                        .maxNumSeqs(1024)
                        .gpuMemoryUtilization(0.5)
                        .build();
        int tokens = c.kvBlocks() * c.blockSize();
        assertTrue(tokens > 5 * (PROMPT + ANSWER) && tokens < 6 * (PROMPT + ANSWER), tokens + " tokens of KV");
        return c;
    }

    /** What a run of the burst leaves: the engine, and when its last request ended. */
    private record Burst(Engine engine, long endNanos) {}

    private static Burst burst(EngineConfig c) {
        Engine e = new Engine(c);
        for (int i = 0; i < REQUESTS; i++) {
            long[] hashes = BlockHashes.unique(7, i, PROMPT, c.blockSize());
            assertTrue(e.submit(new Sequence(i, PROMPT, ANSWER, 0, QUIET, hashes)));
        }
        long t = 0;
        while (e.hasWork()) {
            Engine.Step step = e.planStep(t);
            t += step.nanos();
            e.finishStep(step, t);
        }
        return new Burst(e, t);
    }

    @Test
    void admittedByTheirFirstChunkLongPromptsFillTheCacheAndArePreemptedAndRecomputed() {
        Burst chunk = burst(tight());
        assertTrue(
                chunk.engine().preemptionsTotal() >= 2 * REQUESTS,
                chunk.engine().preemptionsTotal() + " preemptions");
        assertEquals(REQUESTS, chunk.engine().finishedTotal());
    }

    @Test
    void aPreemptedRequestTakesItsOwnBlocksBackFromThePrefixCacheAndRecomputesLittle() {
        Burst without = burst(tight());
        Burst with = burst(tight().toBuilder().prefixCaching(true).build());
        // No prompt shares a block with another, yet caching pays: what a preempted request had computed is still
        // cached when it comes back (vLLM V1, on by default).
        assertTrue(
                with.endNanos() < 0.6 * without.endNanos(),
                "with a prefix cache " + with.endNanos() / 1e9 + " s, without " + without.endNanos() / 1e9 + " s");
        assertEquals(REQUESTS, with.engine().finishedTotal());
    }

    @Test
    void withoutEvictionNothingStartedIsPreemptedAndTheBurstEndsSooner() {
        Burst chunk = burst(tight());
        Burst noEvict = burst(tight().toBuilder().admission(Admission.NO_EVICT).build());
        assertEquals(0, noEvict.engine().preemptionsTotal());
        assertEquals(REQUESTS, noEvict.engine().finishedTotal());
        assertTrue(
                noEvict.endNanos() < chunk.endNanos(),
                "no-evict " + noEvict.endNanos() / 1e9 + " s, chunk " + chunk.endNanos() / 1e9 + " s");
    }

    @Test
    void withoutEvictionAWaitingRequestNeedsRoomForItsWholeAnswerBesideWhatTheRunningOnesWillStillNeed() {
        EngineConfig c = tight().toBuilder().admission(Admission.NO_EVICT).build();
        int blocks = c.kvBlocks();
        Engine e = new Engine(c);
        // One request whose answer will need about 60 % of the cache, though its prompt takes one block.
        int longAnswer = (int) (0.6 * blocks * c.blockSize());
        e.submit(new Sequence(0, 16, longAnswer, 0, QUIET));
        e.finishStep(e.planStep(0), 1);
        // A second whose prompt and answer need half the cache: its first chunk would fit, its whole does not.
        e.submit(new Sequence(1, blocks * c.blockSize() / 2 - 100, 100, 1, QUIET));
        Engine.Step step = e.planStep(1);
        assertEquals(1, step.batchSize(), "the second waits for room for all of it");
        e.finishStep(step, 2);

        Engine chunked = new Engine(tight());
        chunked.submit(new Sequence(0, 16, longAnswer, 0, QUIET));
        chunked.finishStep(chunked.planStep(0), 1);
        chunked.submit(new Sequence(1, blocks * c.blockSize() / 2 - 100, 100, 1, QUIET));
        Engine.Step admitted = chunked.planStep(1);
        assertEquals(2, admitted.batchSize(), "by its first chunk it is admitted at once");
        assertFalse(admitted.counts[1] == 0);
    }
}
