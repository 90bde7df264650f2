package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Profiles;
import org.junit.jupiter.api.Test;

class StepCostModelTest {
    private static final HardwareProfile H100 = Profiles.hardware("h100-sxm");

    private static double decodeStep(StepCostModel cost, int batch, int context) {
        var step = cost.newStep();
        for (int i = 0; i < batch; i++) step.add(context, 1);
        return step.seconds();
    }

    @Test
    void batchOneDecodeIsMemoryBound() {
        ModelProfile m = Profiles.model("llama-3.1-70b");
        var cost = new StepCostModel(H100, m, 4);
        // 70.6e9 x 2 bytes / 4 GPUs / (3350e9 x 0.8) = 13.17 ms, + 1 ms overhead,
        // + all-reduce: 2 x 80 layers x (8 us + 2 x 3/4 x 8192 x 2 bytes / 900e9) = 1.284 ms.
        double expected = 70.6e9 * 2 / 4 / (3350e9 * 0.8) + 1e-3 + 2 * 80 * (8e-6 + 1.5 * 8192 * 2 / 900e9);
        assertEquals(expected, decodeStep(cost, 1, 0), expected * 0.001);
    }

    @Test
    void largePrefillIsComputeBound() {
        ModelProfile m = Profiles.model("llama-3.1-8b");
        var cost = new StepCostModel(H100, m, 1);
        var step = cost.newStep();
        step.add(0, 8192);
        double linear = 2 * 8.03e9 * 8192 / (989e12 * 0.55);
        double attention = 4.0 * 32 * 32 * 128 * 8192 * (8192 + 1) / 2.0 / (989e12 * 0.55);
        assertEquals(linear + attention + 1e-3, step.seconds(), 1e-6);
    }

    @Test
    void decodeStepGrowsWithBatchAndContextThroughKvReads() {
        var cost = new StepCostModel(H100, Profiles.model("llama-3.1-8b"), 1);
        assertTrue(decodeStep(cost, 64, 2048) > decodeStep(cost, 64, 128) * 1.5);
        assertTrue(decodeStep(cost, 256, 512) > decodeStep(cost, 16, 512));
        // But batching amortises the weights: 64 sequences cost far less than 64 single steps.
        assertTrue(decodeStep(cost, 64, 512) < 4 * decodeStep(cost, 1, 512));
    }

    @Test
    void mixtureOfExpertsReadsOnlyTouchedExpertsAtSmallBatch() {
        ModelProfile mixtral = Profiles.model("mixtral-8x7b");
        var cost = new StepCostModel(H100, mixtral, 2);
        // One token touches 2 of 8 experts: active weights only.
        assertEquals(12.9e9 * 2, cost.weightBytesRead(1), 1e6);
        // A large batch touches every expert.
        assertEquals(46.7e9 * 2, cost.weightBytesRead(256), 1e7);
    }
}
