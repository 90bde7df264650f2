package dev.headroom.sim.engine;

import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.StepTerm;

/**
 * Turns one scheduled step into a duration, per GPU (every term and its source: docs/simulator.md):
 * <pre>
 * step overhead + sequences × seq overhead + layers × layer overhead
 *   + max(FLOPs / (TP × peak × compute efficiency × g), bytes / (TP × bandwidth × memory efficiency))
 *   + all-reduces
 * </pre>
 * where g = m / (m + gemm_half_tokens) is the matrix multiplies' efficiency at m tokens in the step (scaled by the
 * columns each GPU holds, so a model split over more GPUs needs more tokens to be efficient).
 * <ul>
 *   <li>FLOPs: 2 × active parameters per token, plus attention 4 × layers × heads × head_dim per (query, key)
 *       pair, where a chunk of n new tokens after c cached ones has n × (c + (n+1)/2) pairs.</li>
 *   <li>Bytes: the weights once per step (a mixture of experts reads only the experts its tokens touch; with
 *       attention data-parallel, each GPU its group's share of the attention weights), plus every scheduled
 *       sequence's KV cache (c read + n written) in the KV cache's own format.</li>
 *   <li>All-reduce for TP &gt; 1: two per layer of tokens × hidden × 2 bytes: a latency per call growing with
 *       log2(TP), plus the ring's 2(TP−1)/TP of the bytes over the interconnect.</li>
 *   <li>A mixture of experts: its experts' FLOPs and weight reads apart from the rest, at the grouped GEMMs' own
 *       efficiency ({@link StepTerm#MOE_EFFICIENCY}); the experts' multiplies are one grouped GEMM over every routed
 *       row (tokens × experts per token), so g is taken at those rows, and a decode step whose tokens spread thin
 *       over many experts costs the weight reads of the experts it touches; plus
 *       {@link StepTerm#MOE_LAYER_OVERHEAD_US} per layer.</li>
 * </ul>
 */
public final class StepCostModel {
    /** Columns per GPU at which {@link StepTerm#GEMM_HALF_TOKENS} is stated. */
    private static final double REFERENCE_COLUMNS = 4096;

    private final ModelProfile model;
    private final int tp;
    private final double peakFlops;
    private final double bandwidth;
    private final double overheadSeconds;
    private final double seqOverheadSeconds;
    private final double layerOverheadSeconds;
    private final double gemmHalfTokens;
    private final double allreduceLatencySeconds;
    private final double interconnect;
    private final double kvReadBytesPerTokenPerGpu;
    private final double attentionFlopsPerPair;
    private final double sharedWeightBytes;
    private final double expertWeightBytes;
    /** Attention weights each GPU reads beyond its TP share, with data-parallel attention. */
    private final double attentionCopyBytes;
    /** Parameters every token multiplies: all of a dense model, the shared (non-expert) ones of a MoE. */
    private final double sharedActiveParameters;

    private final double moeEfficiency;
    private final double moeLayerOverheadSeconds;

    public StepCostModel(EngineConfig config) {
        HardwareProfile hw = config.hardware();
        this.model = config.model();
        this.tp = config.tensorParallel();
        double peak = (config.weights().fp8Compute() ? hw.fp8Tflops() : hw.bf16Tflops()) * 1e12;
        this.peakFlops = peak * hw.term(StepTerm.COMPUTE_EFFICIENCY);
        this.bandwidth = hw.memoryBandwidthGbS() * 1e9 * hw.term(StepTerm.MEMORY_EFFICIENCY);
        this.overheadSeconds = hw.term(StepTerm.STEP_OVERHEAD_MS) / 1e3;
        this.seqOverheadSeconds = hw.term(StepTerm.SEQ_OVERHEAD_US) / 1e6;
        this.layerOverheadSeconds = hw.term(StepTerm.LAYER_OVERHEAD_US) / 1e6 * model.layers();
        double columnsPerGpu = (double) model.hiddenSize() / tp;
        this.gemmHalfTokens = hw.term(StepTerm.GEMM_HALF_TOKENS) * REFERENCE_COLUMNS / columnsPerGpu;
        double log2 = Math.log(tp) / Math.log(2);
        this.allreduceLatencySeconds = hw.term(StepTerm.ALLREDUCE_LATENCY_US) / 1e6 * Math.max(1, log2);
        this.interconnect = hw.interconnectGbS() * 1e9;
        // Per GPU: the KV heads are split over the GPUs (a GPU holds at least one).
        this.kvReadBytesPerTokenPerGpu = config.kvBytesReadPerTokenPerGpu();
        this.attentionCopyBytes = config.attentionCopyBytesPerGpu();
        this.attentionFlopsPerPair = 4.0 * model.layers() * model.attentionHeads() * model.headDim();
        if (model.isMoe()) {
            // Per-expert parameters (summed over layers) follow from total and active counts.
            double perExpert = (model.parameters() - model.active()) / (model.experts() - model.expertsPerToken());
            this.expertWeightBytes = perExpert * model.bytesPerWeight();
            this.sharedWeightBytes = (model.active() - model.expertsPerToken() * perExpert) * model.bytesPerWeight();
            this.moeEfficiency = moeTerm(hw, model, StepTerm.MOE_EFFICIENCY);
            this.moeLayerOverheadSeconds = moeTerm(hw, model, StepTerm.MOE_LAYER_OVERHEAD_US) / 1e6 * model.layers();
            this.sharedActiveParameters = sharedWeightBytes / model.bytesPerWeight();
        } else {
            this.expertWeightBytes = 0;
            this.sharedWeightBytes = model.weightBytes();
            this.moeEfficiency = 1;
            this.moeLayerOverheadSeconds = 0;
            this.sharedActiveParameters = model.active();
        }
    }

    /**
     * An experts' term: the hardware profile's when it states one (a {@code --set}, a fit, a calibration), else the
     * model's own (its experts' shape decides how fast the fused kernels run), else the default.
     */
    public static double moeTerm(HardwareProfile hw, ModelProfile model, StepTerm t) {
        if (hw.states(t)) return hw.term(t);
        Double own = model.moeTerm(t);
        return own != null ? own : t.defaultValue();
    }

    /** Accumulates the work of one step. */
    public final class Step {
        private long tokens;
        private int sequences;
        private double attentionPairs;
        private double kvTokens;

        /** Adds {@code n} new tokens of a sequence that already has {@code cached} tokens in the KV cache. */
        public void add(int cached, int n) {
            tokens += n;
            sequences++;
            attentionPairs += (double) n * (cached + (n + 1) / 2.0);
            kvTokens += cached + n;
        }

        public long tokens() {
            return tokens;
        }

        /** Duration of the step in seconds, before noise. */
        public double seconds() {
            if (tokens == 0) return 0;
            double gemm = tokens / (tokens + gemmHalfTokens);
            double compute = (2.0 * sharedActiveParameters * tokens + attentionFlopsPerPair * attentionPairs)
                            / tp
                            / (peakFlops * gemm)
                    + expertComputeSeconds(tokens);
            double memory =
                    (sharedWeightBytes / tp + attentionCopyBytes + kvTokens * kvReadBytesPerTokenPerGpu) / bandwidth
                            + expertWeightBytesRead(tokens) / tp / (bandwidth * moeEfficiency);
            return overheadSeconds
                    + sequences * seqOverheadSeconds
                    + layerOverheadSeconds
                    + moeLayerOverheadSeconds
                    + Math.max(compute, memory)
                    + allreduceSeconds(tokens);
        }
    }

    public Step newStep() {
        return new Step();
    }

    /** Bytes of weights one step reads: all of a dense model; for MoE, the experts its tokens are expected to touch. */
    double weightBytesRead(long tokens) {
        return sharedWeightBytes + expertWeightBytesRead(tokens);
    }

    private double expertWeightBytesRead(long tokens) {
        return model.isMoe() ? expertWeightBytes * touchedExperts(tokens) : 0;
    }

    /** Experts (summed over their layers' share) that {@code tokens} tokens are expected to route to. */
    private double touchedExperts(long tokens) {
        double missOne = 1.0 - (double) model.expertsPerToken() / model.experts();
        return model.experts() * (1.0 - Math.pow(missOne, tokens));
    }

    /**
     * The experts' matrix multiplies: one grouped GEMM over every routed row (each token once per expert it routes
     * to), at efficiency rows / (rows + gemm_half_tokens). Taken per expert instead (a few rows each at decode), the
     * efficiency floor made DeepSeek-R1's decode steps compute-bound and 2-3× too slow on SGLang 0.5; judged by
     * leaving each publication out, docs/benchmarks.md.
     */
    private double expertComputeSeconds(long tokens) {
        if (!model.isMoe()) return 0;
        double rows = (double) tokens * model.expertsPerToken();
        double gemm = rows / (rows + gemmHalfTokens);
        double flops = 2.0 * (expertWeightBytes / model.bytesPerWeight()) * rows;
        return flops / tp / (peakFlops * gemm * moeEfficiency);
    }

    double allreduceSeconds(long tokens) {
        if (tp == 1) return 0;
        double bytes = (double) tokens * model.hiddenSize() * 2;
        double ring = 2.0 * (tp - 1) / tp * bytes / interconnect;
        return 2.0 * model.layers() * (allreduceLatencySeconds + ring);
    }
}
