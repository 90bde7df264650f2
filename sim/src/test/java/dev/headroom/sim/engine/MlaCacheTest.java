package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import org.junit.jupiter.api.Test;

/** An MLA latent stored as K and V both (TensorRT-LLM's first DeepSeek support), or once. */
class MlaCacheTest {
    private static EngineConfig on(String model, boolean keyAndValue) {
        return EngineConfig.defaults(Profiles.hardware("h200"), Profiles.model(model)).toBuilder()
                .tensorParallel(8)
                .kvCache(Precision.BF16)
                .mlaCacheKeyAndValue(keyAndValue)
                .noise(0, 0, 0)
                .build();
    }

    @Test
    void aLatentStoredAsKeyAndValueTakesTwiceTheBytesSoTheCacheHoldsHalfTheTokens() {
        EngineConfig once = on("deepseek-v3", false), twice = on("deepseek-v3", true);
        // 576 elements a layer, 61 layers, BF16: 70,272 bytes a token on every GPU of TP 8; stored twice, 140,544.
        assertEquals(70_272, once.kvBytesPerTokenPerGpu(), 1e-6);
        assertEquals(140_544, twice.kvBytesPerTokenPerGpu(), 1e-6);
        assertEquals(once.kvBlocks() / 2, twice.kvBlocks(), 1);
        assertEquals("k-and-v", twice.settings().get("mla_cache"));
        assertFalse(once.settings().containsKey("mla_cache"));
    }

    @Test
    void aDecodeStepReadsTheLatentOnceWhereverItIsStored() {
        StepCostModel.Step a = new StepCostModel(on("deepseek-v3", false)).newStep();
        StepCostModel.Step b = new StepCostModel(on("deepseek-v3", true)).newStep();
        for (int i = 0; i < 64; i++) {
            a.add(8000, 1);
            b.add(8000, 1);
        }
        assertEquals(a.seconds(), b.seconds(), 1e-12);
    }

    @Test
    void aModelWithoutALatentIsNotChanged() {
        EngineConfig once = on("llama-3.1-70b", false), twice = on("llama-3.1-70b", true);
        assertEquals(once.kvBytesPerTokenPerGpu(), twice.kvBytesPerTokenPerGpu(), 1e-9);
        assertEquals(once.kvBlocks(), twice.kvBlocks());
        assertTrue(Profiles.model("deepseek-v3").latentKv());
        assertFalse(Profiles.model("llama-3.1-70b").latentKv());
    }
}
