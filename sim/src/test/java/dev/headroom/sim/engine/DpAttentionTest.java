package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BadInputException;
import dev.headroom.sim.profile.Profiles;
import org.junit.jupiter.api.Test;

/** Attention run data-parallel over groups of the TP GPUs (SGLang's {@code --enable-dp-attention}). */
class DpAttentionTest {
    private static EngineConfig on(String hardware, String model, int tp, int dpAttention) {
        return EngineConfig.defaults(Profiles.hardware(hardware), Profiles.model(model)).toBuilder()
                .tensorParallel(tp)
                .attentionDataParallel(dpAttention)
                .noise(0, 0, 0)
                .build();
    }

    @Test
    void anMlaLatentIsNoLongerCopiedOnEveryGpuSoTheCacheHoldsSeveralTimesTheTokens() {
        EngineConfig tp = on("h200", "deepseek-v3", 8, 1);
        EngineConfig dp = on("h200", "deepseek-v3", 8, 8);
        assertEquals(tp.kvBytesPerTokenPerGpu() / 8, dp.kvBytesPerTokenPerGpu(), 1e-9);
        // Fewer than 8x: every GPU also holds all of the attention layers' 11.4 GB of FP8 weights.
        double ratio = (double) dp.kvBlocks() / tp.kvBlocks();
        assertTrue(ratio > 4 && ratio < 8, "KV blocks x" + ratio);
        assertEquals(11.41e9 * 7 / 8, dp.attentionCopyBytesPerGpu(), 1e7);
    }

    @Test
    void aKvCacheSplitByHeadsGainsNothingAndLosesTheRoomOfTheCopiedAttentionWeights() {
        EngineConfig tp = on("h100-sxm", "llama-3.1-70b", 8, 1);
        EngineConfig dp = on("h100-sxm", "llama-3.1-70b", 8, 8);
        assertEquals(tp.kvBytesPerTokenPerGpu(), dp.kvBytesPerTokenPerGpu(), 1e-9);
        assertTrue(dp.kvBlocks() < tp.kvBlocks(), dp.kvBlocks() + " blocks against " + tp.kvBlocks());
    }

    @Test
    void eachGpuReadsTheCopiedAttentionWeightsInEveryDecodeStep() {
        StepCostModel tp = new StepCostModel(on("h200", "deepseek-v3", 8, 1));
        StepCostModel dp = new StepCostModel(on("h200", "deepseek-v3", 8, 8));
        StepCostModel.Step a = tp.newStep(), b = dp.newStep();
        for (int i = 0; i < 64; i++) {
            a.add(10, 1);
            b.add(10, 1);
        }
        // Short contexts, so the KV cache read is small: ~10 GB more of attention weights at ~4.5 TB/s.
        double extra = b.seconds() - a.seconds();
        assertTrue(extra > 1.5e-3 && extra < 3e-3, "decode step +" + extra * 1e3 + " ms");
        // Long contexts: each GPU reads an eighth of the latent, which outweighs the copied weights.
        StepCostModel.Step c = tp.newStep(), d = dp.newStep();
        for (int i = 0; i < 64; i++) {
            c.add(8000, 1);
            d.add(8000, 1);
        }
        assertTrue(d.seconds() < c.seconds(), d.seconds() + " s against " + c.seconds());
    }

    @Test
    void groupsThatDoNotDivideTheGpusAreRefusedByName() {
        BadInputException e = assertThrows(BadInputException.class, () -> on("h200", "deepseek-v3", 8, 3));
        assertTrue(e.getMessage().contains("sim-dp-attention must divide sim-tp (8), got 3"), e.getMessage());
    }
}
