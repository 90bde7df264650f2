package dev.headroom.sim.engine;

import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;

/**
 * The roofline that turns one scheduled step into a duration:
 * {@code overhead + max(FLOPs / (peak × efficiency), bytes / (bandwidth × efficiency)) + all-reduce}, per GPU.
 * <ul>
 *   <li>FLOPs: 2 × active parameters per token, plus attention 4 × layers × heads × head_dim per (query, key)
 *       pair, where a chunk of n new tokens after c cached ones has n × (c + (n+1)/2) pairs.</li>
 *   <li>Bytes: the weights once per step (a mixture of experts reads only the experts its tokens touch), plus
 *       every scheduled sequence's KV cache (c read + n written).</li>
 *   <li>All-reduce for TP &gt; 1: two per layer of tokens × hidden × 2 bytes, ring algorithm.</li>
 * </ul>
 */
public final class StepCostModel {
    private final ModelProfile model;
    private final int tp;
    private final double peakFlops;
    private final double bandwidth;
    private final double overheadSeconds;
    private final double allreduceLatencySeconds;
    private final double interconnect;
    private final double kvBytesPerToken;
    private final double attentionFlopsPerPair;
    private final double sharedWeightBytes;
    private final double expertWeightBytes;

    public StepCostModel(HardwareProfile hw, ModelProfile model, int tp) {
        this.model = model;
        this.tp = tp;
        double peak = (model.bytesPerWeight() <= 1 ? hw.fp8Tflops() : hw.bf16Tflops()) * 1e12;
        this.peakFlops = peak * hw.computeEfficiency();
        this.bandwidth = hw.memoryBandwidthGbS() * 1e9 * hw.memoryEfficiency();
        this.overheadSeconds = hw.stepOverheadMs() / 1e3;
        this.allreduceLatencySeconds = hw.allreduceLatencyUs() / 1e6;
        this.interconnect = hw.interconnectGbS() * 1e9;
        this.kvBytesPerToken = model.kvBytesPerToken();
        this.attentionFlopsPerPair = 4.0 * model.layers() * model.attentionHeads() * model.headDim();
        if (model.isMoe()) {
            // Per-expert parameters (summed over layers) follow from total and active counts.
            double perExpert = (model.parameters() - model.active()) / (model.experts() - model.expertsPerToken());
            this.expertWeightBytes = perExpert * model.bytesPerWeight();
            this.sharedWeightBytes = (model.active() - model.expertsPerToken() * perExpert) * model.bytesPerWeight();
        } else {
            this.expertWeightBytes = 0;
            this.sharedWeightBytes = model.weightBytes();
        }
    }

    /** Accumulates the work of one step. */
    public final class Step {
        private long tokens;
        private double attentionPairs;
        private double kvTokens;

        /** Adds {@code n} new tokens of a sequence that already has {@code cached} tokens in the KV cache. */
        public void add(int cached, int n) {
            tokens += n;
            attentionPairs += (double) n * (cached + (n + 1) / 2.0);
            kvTokens += cached + n;
        }

        public long tokens() {
            return tokens;
        }

        /** Duration of the step in seconds, before noise. */
        public double seconds() {
            if (tokens == 0) return 0;
            double flops = 2.0 * model.active() * tokens + attentionFlopsPerPair * attentionPairs;
            double bytes = weightBytesRead(tokens) + kvTokens * kvBytesPerToken;
            double compute = flops / tp / peakFlops;
            double memory = bytes / tp / bandwidth;
            return overheadSeconds + Math.max(compute, memory) + allreduceSeconds(tokens);
        }
    }

    public Step newStep() {
        return new Step();
    }

    /** Bytes of weights one step reads: all of a dense model; for MoE, the experts its tokens are expected to touch. */
    double weightBytesRead(long tokens) {
        if (!model.isMoe()) return sharedWeightBytes;
        double missOne = 1.0 - (double) model.expertsPerToken() / model.experts();
        double touched = 1.0 - Math.pow(missOne, tokens);
        return sharedWeightBytes + expertWeightBytes * model.experts() * touched;
    }

    double allreduceSeconds(long tokens) {
        if (tp == 1) return 0;
        double bytes = (double) tokens * model.hiddenSize() * 2;
        double ring = 2.0 * (tp - 1) / tp * bytes / interconnect;
        return 2.0 * model.layers() * (allreduceLatencySeconds + ring);
    }
}
