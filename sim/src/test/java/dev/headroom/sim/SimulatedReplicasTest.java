package dev.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.EngineKnobs;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Precision;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatedReplicasTest {
    static CatalogOption option(EngineKnobs knobs) {
        return new CatalogOption(
                "h100-tp2", 2, Map.of(PricingTier.ON_DEMAND, 2.99), "h100-sxm", "llama-3.1-8b", null, knobs);
    }

    @Test
    void aCatalogOptionsEngineSettingsReachItsStockEngine() {
        EngineConfig e = SimulatedReplicas.stock(option(new EngineKnobs(64, 512, "fp8", "fp8")), "test", 1);
        assertEquals(2, e.tensorParallel());
        assertEquals(64, e.maxNumSeqs());
        assertEquals(512, e.maxNumBatchedTokens());
        assertEquals(Precision.FP8, e.kvCache());
        assertEquals(Precision.FP8, e.weights());
    }

    @Test
    void anOptionWithoutSettingsRunsTheEnginesDefaults() {
        EngineConfig e = SimulatedReplicas.stock(option(EngineKnobs.DEFAULTS), "test", 1);
        assertEquals(EngineConfig.DEFAULT_MAX_NUM_SEQS, e.maxNumSeqs());
        assertEquals(EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS, e.maxNumBatchedTokens());
        assertEquals(Precision.BF16, e.weights());
    }

    @Test
    void aBadFormatNamesTheOptionAndItsKey() {
        var x = assertThrows(
                BadInputException.class,
                () -> SimulatedReplicas.stock(option(new EngineKnobs(0, 0, "int8", null)), "test", 1));
        assertTrue(x.getMessage().contains("option h100-tp2: kv_cache_dtype"), x.getMessage());
    }
}
