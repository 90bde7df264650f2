package dev.headroom.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import org.junit.jupiter.api.Test;

class StepCostModelTest {
    /** An H100 with every term set here, so the expected figures below do not move when the fit does. */
    private static final HardwareProfile H100 = Profiles.hardware("h100-sxm")
            .with(StepTerm.MEMORY_EFFICIENCY, 0.8)
            .with(StepTerm.COMPUTE_EFFICIENCY, 0.6)
            .with(StepTerm.STEP_OVERHEAD_MS, 1.0)
            .with(StepTerm.ALLREDUCE_LATENCY_US, 10)
            .with(StepTerm.GEMM_HALF_TOKENS, 64)
            .with(StepTerm.SEQ_OVERHEAD_US, 10)
            .with(StepTerm.LAYER_OVERHEAD_US, 5);

    private static StepCostModel cost(HardwareProfile hw, String model, int tp) {
        return new StepCostModel(config(hw, model, tp));
    }

    private static EngineConfig config(HardwareProfile hw, String model, int tp) {
        return EngineConfig.defaults(hw, Profiles.model(model)).withTensorParallel(tp);
    }

    private static double decodeStep(StepCostModel cost, int batch, int context) {
        var step = cost.newStep();
        for (int i = 0; i < batch; i++) step.add(context, 1);
        return step.seconds();
    }

    private static double prefill(StepCostModel cost, int tokens) {
        var step = cost.newStep();
        step.add(0, tokens);
        return step.seconds();
    }

    @Test
    void batchOneDecodeIsMemoryBoundPlusFixedCosts() {
        var cost = cost(H100, "llama-3.1-70b", 4);
        // Weights: 70.6e9 x 2 bytes / 4 GPUs / (3350e9 x 0.8); + 1 ms step, 10 us for the sequence, 80 x 5 us layers;
        // + all-reduce: 2 x 80 layers x (10 us x log2(4) + 2 x 3/4 x 8192 x 2 bytes / 900e9).
        double expected = 70.6e9 * 2 / 4 / (3350e9 * 0.8)
                + 1e-3
                + 10e-6
                + 80 * 5e-6
                + 2 * 80 * (10e-6 * 2 + 1.5 * 8192 * 2 / 900e9);
        assertEquals(expected, decodeStep(cost, 1, 0), expected * 0.001);
    }

    @Test
    void largePrefillIsComputeBound() {
        var cost = cost(H100, "llama-3.1-8b", 1);
        double g = 8192.0 / (8192 + 64);
        double linear = 2 * 8.03e9 * 8192 / (989e12 * 0.6 * g);
        double attention = 4.0 * 32 * 32 * 128 * 8192 * (8192 + 1) / 2.0 / (989e12 * 0.6 * g);
        assertEquals(linear + attention + 1e-3 + 10e-6 + 32 * 5e-6, prefill(cost, 8192), 1e-6);
    }

    @Test
    void smallMatrixMultipliesAreLessEfficient() {
        double fixed = 1e-3 + 10e-6 + 32 * 5e-6;
        double efficient = prefill(cost(H100, "llama-3.1-8b", 1), 2048) - fixed;
        double halfEfficient = prefill(cost(H100.with(StepTerm.GEMM_HALF_TOKENS, 2048), "llama-3.1-8b", 1), 2048);
        // At the half point the multiplies take (2048 + 64) / 2048 x 2 as long as with a small half point.
        assertEquals(efficient * 2 * 2048 / (2048 + 64), halfEfficient - fixed, efficient * 0.001);
    }

    @Test
    void modelSplitOverMoreGpusNeedsMoreTokensPerStepToBeEfficient() {
        HardwareProfile hw = H100.with(StepTerm.STEP_OVERHEAD_MS, 0)
                .with(StepTerm.SEQ_OVERHEAD_US, 0)
                .with(StepTerm.LAYER_OVERHEAD_US, 0)
                .with(StepTerm.ALLREDUCE_LATENCY_US, 0)
                .with(StepTerm.GEMM_HALF_TOKENS, 256);
        // A 4096-token prefill of a model with 8192 columns: on 2 GPUs each holds 4096 (half point 256 tokens), on 8
        // GPUs 1024 (half point 4 x 256 tokens).
        var two = cost(hw, "llama-3.1-70b", 2);
        var eight = cost(hw, "llama-3.1-70b", 8);
        double ratio = (prefill(eight, 4096) - eight.allreduceSeconds(4096))
                / (prefill(two, 4096) - two.allreduceSeconds(4096));
        double expected = 2.0 / 8 * ((4096 + 1024.0) / 4096) / ((4096 + 256.0) / 4096);
        assertEquals(expected, ratio, expected * 0.01);
    }

    @Test
    void perSequenceCostGrowsWithTheBatch() {
        var cost = cost(H100.with(StepTerm.SEQ_OVERHEAD_US, 20), "llama-3.1-8b", 1);
        var none = cost(H100.with(StepTerm.SEQ_OVERHEAD_US, 0), "llama-3.1-8b", 1);
        assertEquals(128 * 20e-6, decodeStep(cost, 128, 256) - decodeStep(none, 128, 256), 1e-9);
    }

    @Test
    void allReduceLatencyGrowsWithLogOfTp() {
        var two = cost(H100, "llama-3.1-70b", 2);
        var eight = cost(H100, "llama-3.1-70b", 8);
        double ring2 = 2 * 80 * (2.0 * 1 / 2 * 8192 * 2 / 900e9);
        double ring8 = 2 * 80 * (2.0 * 7 / 8 * 8192 * 2 / 900e9);
        assertEquals(2 * 80 * 10e-6 + ring2, two.allreduceSeconds(1), 1e-9);
        assertEquals(2 * 80 * 30e-6 + ring8, eight.allreduceSeconds(1), 1e-9);
    }

    @Test
    void fp8KvCacheHalvesKvBytesAndDoublesBlocks() {
        EngineConfig bf16 = config(H100, "llama-3.1-70b", 4);
        EngineConfig fp8 = bf16.toBuilder().kvCache(Precision.FP8).build();
        assertEquals(bf16.kvBytesPerTokenPerGpu() / 2, fp8.kvBytesPerTokenPerGpu(), 1e-9);
        assertEquals(2.0 * bf16.kvBlocks(), fp8.kvBlocks(), 2);
        // A long-context decode batch reads half the KV bytes, so its step is shorter.
        assertTrue(decodeStep(new StepCostModel(fp8), 128, 8192) < decodeStep(new StepCostModel(bf16), 128, 8192));
    }

    @Test
    void fp8WeightsHalveWeightReadsAndUseTheFp8Peak() {
        EngineConfig bf16 = config(H100, "llama-3.1-8b", 1).withNoise(0, 0, 0);
        EngineConfig fp8 = bf16.toBuilder().weights(Precision.FP8).build();
        double fixed = 1e-3 + 10e-6 + 32 * 5e-6;
        assertEquals(
                (decodeStep(new StepCostModel(bf16), 1, 0) - fixed) / 2,
                decodeStep(new StepCostModel(fp8), 1, 0) - fixed,
                1e-7);
        assertTrue(prefill(new StepCostModel(fp8), 8192) < 0.6 * prefill(new StepCostModel(bf16), 8192));
    }

    @Test
    void decodeStepGrowsWithBatchAndContextThroughKvReads() {
        var cost = cost(H100, "llama-3.1-8b", 1);
        assertTrue(decodeStep(cost, 64, 2048) > decodeStep(cost, 64, 128) * 1.5);
        assertTrue(decodeStep(cost, 256, 512) > decodeStep(cost, 16, 512));
        // But batching amortises the weights: 64 sequences cost far less than 64 single steps.
        assertTrue(decodeStep(cost, 64, 512) < 4 * decodeStep(cost, 1, 512));
    }

    @Test
    void mixtureOfExpertsReadsOnlyTouchedExpertsAtSmallBatch() {
        ModelProfile mixtral = Profiles.model("mixtral-8x7b");
        var cost = new StepCostModel(EngineConfig.defaults(H100, mixtral).withTensorParallel(2));
        // One token touches 2 of 8 experts: active weights only.
        assertEquals(12.9e9 * 2, cost.weightBytesRead(1), 1e6);
        // A large batch touches every expert.
        assertEquals(46.7e9 * 2, cost.weightBytesRead(256), 1e7);
    }

    @Test
    void expertsSpreadThinOverManyExpertsCostTheirWeightReads() {
        // DeepSeek-V3 routes each token to 8 of 256 experts: a 128-sequence decode step touches nearly all of them,
        // about 4 tokens each, so it reads nearly all 671B weights where a dense model of the same active size
        // reads 37B; the experts' grouped GEMM over its 1,024 routed rows is not what bounds it.
        ModelProfile v3 = Profiles.model("deepseek-v3");
        ModelProfile dense = new ModelProfile(
                "dense-37b",
                "dense",
                "dense",
                v3.active(),
                null,
                null,
                null,
                v3.layers(),
                v3.hiddenSize(),
                v3.attentionHeads(),
                v3.kvHeads(),
                v3.headDim(),
                v3.bytesPerWeight(),
                v3.kvBytesPerElement(),
                v3.maxContext(),
                null,
                null,
                null,
                null);
        // The GEMM half-size at its default, not the fitted value the profile ships: the shape, not a fit, is tested.
        HardwareProfile ideal = Profiles.hardware("h200")
                .with(StepTerm.MOE_EFFICIENCY, 1)
                .with(StepTerm.MOE_LAYER_OVERHEAD_US, 0)
                .with(StepTerm.GEMM_HALF_TOKENS, StepTerm.GEMM_HALF_TOKENS.defaultValue());
        HardwareProfile slow = ideal.with(StepTerm.MOE_EFFICIENCY, 0.5).with(StepTerm.MOE_LAYER_OVERHEAD_US, 100);
        var moe = new StepCostModel(EngineConfig.defaults(ideal, v3).withTensorParallel(8));
        var moeSlow = new StepCostModel(EngineConfig.defaults(slow, v3).withTensorParallel(8));
        var activeDense = new StepCostModel(EngineConfig.defaults(ideal, dense).withTensorParallel(8));
        var activeDenseSlow =
                new StepCostModel(EngineConfig.defaults(slow, dense).withTensorParallel(8));
        double bandwidth = 4800e9 * ideal.term(StepTerm.MEMORY_EFFICIENCY);
        assertTrue(moe.weightBytesRead(128) > 15 * dense.weightBytes());
        assertTrue(decodeStep(moe, 128, 1000) > moe.weightBytesRead(128) / 8 / bandwidth);
        assertTrue(decodeStep(moe, 128, 1000) > 3 * decodeStep(moe, 1, 1000), "one token touches 8 experts");
        // The grouped GEMMs' efficiency and the per-layer routing cost slow only the experts' model: by at least
        // 61 layers x 100 us, and by more at a batch whose expert GEMMs dominate.
        for (int batch : new int[] {1, 128}) {
            assertTrue(decodeStep(moeSlow, batch, 1000) > decodeStep(moe, batch, 1000) + 61 * 100e-6);
            assertEquals(decodeStep(activeDense, batch, 1000), decodeStep(activeDenseSlow, batch, 1000), 1e-12);
        }
        assertTrue(decodeStep(moeSlow, 128, 1000) > 1.5 * decodeStep(moe, 128, 1000));
    }

    @Test
    void aMixturesOwnExpertTermsApplyUnlessTheHardwareStatesThem() {
        ModelProfile v3 = Profiles.model("deepseek-v3");
        ModelProfile ownTerms = v3.withMoeTerms(1.0, 0.0);
        HardwareProfile h200 = Profiles.hardware("h200");
        assertFalse(h200.states(StepTerm.MOE_EFFICIENCY), "the stock profiles leave the experts' terms to the model");
        double own = decodeStep(
                new StepCostModel(EngineConfig.defaults(h200, ownTerms).withTensorParallel(8)), 64, 1000);
        HardwareProfile asOwn = h200.with(StepTerm.MOE_EFFICIENCY, 1.0).with(StepTerm.MOE_LAYER_OVERHEAD_US, 0.0);
        assertEquals(
                own,
                decodeStep(new StepCostModel(EngineConfig.defaults(asOwn, v3).withTensorParallel(8)), 64, 1000),
                1e-12);
        // A term the hardware states (a --set, a fit) wins over the model's.
        HardwareProfile slow = h200.with(StepTerm.MOE_EFFICIENCY, 0.2).with(StepTerm.MOE_LAYER_OVERHEAD_US, 500.0);
        double set = decodeStep(
                new StepCostModel(EngineConfig.defaults(slow, ownTerms).withTensorParallel(8)), 64, 1000);
        assertEquals(
                set,
                decodeStep(new StepCostModel(EngineConfig.defaults(slow, v3).withTensorParallel(8)), 64, 1000),
                1e-12);
        assertTrue(set > own + 61 * 500e-6);
    }
}
