package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.Workload;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.profile.Profiles;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Schedulers that are not vLLM V1's: multi-step scheduling, prefill without chunks, overlap scheduling. */
class SchedulerShapeTest {
    private static final SequenceListener QUIET = new SequenceListener() {
        @Override
        public void onToken(Sequence seq, int index, long nanos) {}

        @Override
        public void onFinish(Sequence seq, long nanos) {}
    };

    private static EngineConfig base() {
        return EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0);
    }

    private static Measurement open(EngineConfig c, double rate) {
        return new VirtualEngine(c)
                .measure(new MeasurementRequest(
                        new LoadModel.Open(rate, new ArrivalProcess.Poisson()),
                        Workload.fixed(256, 100),
                        RunLength.requests(200),
                        3));
    }

    private static double meanTtftMs(Measurement m) {
        return m.records().stream()
                .mapToDouble(r -> (r.firstTokenNanos() - r.intendedNanos()) / 1e6)
                .average()
                .orElseThrow();
    }

    /** A request's time per output token after the first, averaged (every request here answers 100 tokens). */
    private static double meanDecodeStepMs(Measurement m) {
        return m.records().stream()
                .mapToDouble(r -> (r.endNanos() - r.firstTokenNanos()) / 1e6 / 99)
                .average()
                .orElseThrow();
    }

    @Test
    void multiStepSchedulingStreamsTokensInGroupsAndDelaysAdmission() {
        Measurement one = open(base(), 8);
        Measurement ten = open(base().toBuilder().schedulerSteps(10).build(), 8);
        for (RequestRecord r : ten.records()) {
            assertEquals(100, r.chunkNanos().length, "every token delivered");
            long distinct = Arrays.stream(r.chunkNanos()).distinct().count();
            // 100 tokens in groups of up to 10: at most a dozen delivery times (the first group may be cut).
            assertTrue(distinct <= 12, "delivery times " + distinct);
        }
        // A new request waits for the running group to end before it is admitted.
        assertTrue(meanTtftMs(ten) > meanTtftMs(one) + 15, meanTtftMs(ten) + " vs " + meanTtftMs(one));
    }

    @Test
    void withoutChunkedPrefillAMultiStepPrefillRunsAloneAndItsFirstTokenIsNotHeldForAGroup() {
        EngineConfig whole = base().toBuilder().chunkedPrefill(false).build();
        EngineConfig tenWhole = whole.toBuilder().schedulerSteps(10).build();
        Measurement one = open(whole, 8), ten = open(tenWhole, 8);
        double decodeStepMs = meanDecodeStepMs(one);
        // A new request waits for the running group (up to 10 decode steps, half on average), then its prefill step
        // returns its first token at once: it does not also wait for a group of its own.
        double extra = meanTtftMs(ten) - meanTtftMs(one);
        assertTrue(extra > 0 && extra < 7.5 * decodeStepMs, extra + " ms more; a decode step " + decodeStepMs + " ms");
        for (RequestRecord r : ten.records()) {
            assertTrue(r.chunkNanos()[1] > r.chunkNanos()[0], "the first token came alone, before the first group");
        }
    }

    @Test
    void withoutChunkedPrefillAStepPrefillsWholePromptsOrDecodes() {
        EngineConfig whole = base().toBuilder()
                .chunkedPrefill(false)
                .maxNumBatchedTokens(2048)
                .build();
        Engine e = new Engine(whole);
        Sequence decoding = new Sequence(1, 100, 50, 0, QUIET);
        e.submit(decoding);
        e.finishStep(e.planStep(0), 1);
        // A prompt longer than the budget arrives: it is prefilled whole, in a step of its own.
        Sequence longPrompt = new Sequence(2, 5000, 10, 2, QUIET);
        e.submit(longPrompt);
        Engine.Step step = e.planStep(2);
        assertEquals(1, step.batchSize(), "the decoding sequence waits");
        assertEquals(5000, step.counts[0]);
        e.finishStep(step, 3);
        Engine.Step next = e.planStep(3);
        assertEquals(2, next.batchSize(), "then both decode");
    }

    @Test
    void withoutMixedBatchesALongPromptIsPrefilledInChunksWhileTheDecodesWait() {
        EngineConfig apart =
                base().toBuilder().mixedBatches(false).maxNumBatchedTokens(2048).build();
        Engine e = new Engine(apart);
        Sequence decoding = new Sequence(1, 100, 50, 0, QUIET);
        e.submit(decoding);
        e.finishStep(e.planStep(0), 1);
        Sequence longPrompt = new Sequence(2, 5000, 10, 2, QUIET);
        e.submit(longPrompt);
        // 5,000 tokens in chunks of the 2,048-token budget: three prefill steps of the long prompt alone.
        int[] chunks = new int[3];
        long t = 2;
        for (int i = 0; i < 3; i++) {
            Engine.Step step = e.planStep(t);
            assertEquals(1, step.batchSize(), "the decoding sequence waits while a prompt is under way");
            chunks[i] = step.counts[0];
            e.finishStep(step, ++t);
        }
        assertEquals("[2048, 2048, 904]", Arrays.toString(chunks));
        Engine.Step next = e.planStep(t);
        assertEquals(2, next.batchSize(), "then both decode");
        assertEquals(1, next.counts[0]);
        assertEquals(1, next.counts[1]);

        // With mixed batches (vLLM's chunked prefill) the same prompt's first chunk shares a step with the decode.
        Engine mixed = new Engine(apart.toBuilder().mixedBatches(true).build());
        mixed.submit(new Sequence(1, 100, 50, 0, QUIET));
        mixed.finishStep(mixed.planStep(0), 1);
        mixed.submit(new Sequence(2, 5000, 10, 2, QUIET));
        Engine.Step shared = mixed.planStep(2);
        assertEquals(2, shared.batchSize());
        assertEquals(1, shared.counts[0]);
        assertEquals(2047, shared.counts[1]);
    }

    @Test
    void withOverlapSchedulingARequestArrivingMidStepWaitsForTheStepAlreadyDecided() {
        EngineConfig ahead = base().toBuilder().overlapScheduling(true).build();
        Engine e = new Engine(ahead);
        // An idle engine decides and starts at once.
        e.submit(new Sequence(1, 100, 50, 5, QUIET));
        Engine.Step first = e.planStep(5);
        assertEquals(1, first.batchSize(), "admitted at once");
        e.finishStep(first, 10);
        e.finishStep(e.planStep(10), 20); // a decode step, 10 to 20
        // Arrives at 15, while the step of 20 to 30 is being decided: it is not in it, but in the one after.
        e.submit(new Sequence(2, 100, 50, 15, QUIET));
        Engine.Step decided = e.planStep(20);
        assertEquals(1, decided.batchSize(), "decided at 10, before it arrived");
        e.finishStep(decided, 30);
        assertEquals(2, e.planStep(30).batchSize(), "decided at 20, after it arrived");

        // Without overlap scheduling the step of 20 takes it.
        Engine now = new Engine(base());
        now.submit(new Sequence(1, 100, 50, 5, QUIET));
        now.finishStep(now.planStep(5), 10);
        now.finishStep(now.planStep(10), 20);
        now.submit(new Sequence(2, 100, 50, 15, QUIET));
        assertEquals(2, now.planStep(20).batchSize());
    }

    @Test
    void overlapSchedulingAddsAboutOneDecodeStepToTtftOnABusyEngine() {
        Measurement now = open(base(), 8);
        Measurement ahead = open(base().toBuilder().overlapScheduling(true).build(), 8);
        double decodeStepMs = meanDecodeStepMs(now);
        // Arriving uniformly in a step, a request waits out the rest of it and, decided one step ahead, the next.
        double extra = meanTtftMs(ahead) - meanTtftMs(now);
        assertTrue(
                extra > 0.6 * decodeStepMs && extra < 1.4 * decodeStepMs,
                extra + " ms more; a decode step " + decodeStepMs + " ms");
    }
}
