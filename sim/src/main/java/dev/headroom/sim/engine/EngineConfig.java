package dev.headroom.sim.engine;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.StepTerm;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Everything that shapes the simulated engine: hardware, model, parallelism, number formats, vLLM-style scheduler
 * limits, noise and the seed.
 *
 * @param tensorParallel        GPUs the model is sharded over
 * @param maxNumSeqs            most sequences in one batch (vLLM {@code max_num_seqs}; a server's slots)
 * @param maxNumBatchedTokens   token budget of one step (vLLM {@code max_num_batched_tokens}); long prompts are
 *                              prefilled in chunks of at most this
 * @param blockSize             tokens per KV-cache block
 * @param gpuMemoryUtilization  fraction of GPU memory the engine may use (vLLM {@code gpu_memory_utilization})
 * @param activationReserveGb   memory per GPU held back for activations, not usable for KV
 * @param maxWaiting            longest waiting queue; a request beyond it is refused (HTTP 429)
 * @param noise                 sigma of the per-step log-normal multiplicative jitter (0 = none)
 * @param stallProbability      chance that a step stalls
 * @param stallMs               how long a stall lasts
 * @param eosLength             output length a request gets when it does not set ignore_eos (a model stopping on
 *                              its own), clamped to [min_tokens, max_tokens]
 * @param seed                  seeds the noise and the output lengths
 * @param prefixCaching         automatic prefix caching, on by default as in vLLM: full prompt blocks already in the
 *                              KV cache are not prefilled again
 * @param weights               the weights' number format (null: the model profile's)
 * @param kvCache               the KV cache's number format, apart from the weights' (null: the model profile's)
 * @param chunkedPrefill        vLLM's default: prompts are prefilled in chunks within the token budget, beside the
 *                              decodes; off, a step either prefills whole prompts or decodes (TGI, vLLM V0)
 * @param mixedBatches          prefill chunks and decodes share a step (vLLM's chunked prefill); off, a step either
 *                              prefills (waiting prompts first, chunked within the budget) or decodes — SGLang's
 *                              default ({@code --enable-mixed-chunk} off). Without chunked prefill steps never mix
 * @param schedulerSteps        vLLM's {@code --num-scheduler-steps} (multi-step scheduling): after each scheduled step
 *                              the batch decodes this many − 1 steps more without admitting anything, and their
 *                              tokens reach the clients together at the end; 1 = every step is scheduled
 * @param overlapScheduling     the scheduler runs one step ahead of the GPU (SGLang 0.4+'s default, TensorRT-LLM's
 *                              PyTorch backend): a step back to back with the last one was decided when the last one
 *                              began, so it admits only requests that had arrived by then
 * @param contextPerRequest     tokens one request may hold, prompt and answer (vLLM {@code --max-model-len},
 *                              llama.cpp's context per slot); 0 = the model's whole context
 * @param overContext           what the server does with a request that does not fit it
 * @param dataParallel          replicas of the whole engine (each on its own {@code tensorParallel} GPUs) behind a
 *                              balancer that sends each request to the replica with the fewest requests in it
 * @param disaggregation        prefill and decode engines apart, the KV cache moved between them; null = each engine
 *                              serves its requests whole (the virtual clock only)
 * @param drift                 how the server's speed changes as it runs (null: {@link Drift#NONE}, stationary)
 * @param admission             what KV room a waiting request must find to be admitted (null: {@link Admission#CHUNK},
 *                              vLLM's)
 * @param attentionDataParallel attention run data-parallel over this many groups of the TP GPUs, each group keeping
 *                              the KV cache of its own requests (SGLang's {@code --enable-dp-attention}): a KV cache
 *                              with fewer heads than GPUs (an MLA latent) is no longer copied on every GPU; 1 = none
 * @param mlaCacheKeyAndValue   the engine stores a model's MLA latent ({@link ModelProfile#latentKv}) as K and V both,
 *                              twice its bytes, as TensorRT-LLM's first DeepSeek support and llama.cpp before its
 *                              V-less cache did; false = once, as vLLM and SGLang do
 */
public record EngineConfig(
        HardwareProfile hardware,
        ModelProfile model,
        int tensorParallel,
        int maxNumSeqs,
        int maxNumBatchedTokens,
        int blockSize,
        double gpuMemoryUtilization,
        double activationReserveGb,
        int maxWaiting,
        double noise,
        double stallProbability,
        double stallMs,
        LengthDistribution eosLength,
        long seed,
        boolean prefixCaching,
        Precision weights,
        Precision kvCache,
        boolean chunkedPrefill,
        boolean mixedBatches,
        int schedulerSteps,
        boolean overlapScheduling,
        int contextPerRequest,
        OverContext overContext,
        int dataParallel,
        Disaggregation disaggregation,
        Drift drift,
        Admission admission,
        int attentionDataParallel,
        boolean mlaCacheKeyAndValue) {

    public static final int DEFAULT_MAX_NUM_SEQS = 256;
    public static final int DEFAULT_MAX_NUM_BATCHED_TOKENS = 8192;
    public static final int DEFAULT_MAX_WAITING = 4096;
    public static final double DEFAULT_NOISE = 0.02;
    public static final double DEFAULT_STALL_PROBABILITY = 1e-4;
    public static final double DEFAULT_STALL_MS = 25;

    public EngineConfig {
        if (hardware == null || model == null) throw new IllegalArgumentException("engine needs hardware and model");
        if (weights == null) weights = Precision.ofBytes(model.bytesPerWeight());
        if (kvCache == null) kvCache = Precision.ofBytes(model.kvBytesPerElement());
        if (kvCache == Precision.INT8 || kvCache == Precision.INT4) {
            throw new BadInputException("kv-cache-dtype must be bf16, fp16 or fp8, got " + kvCache.wireName());
        }
        // The model as deployed: its element sizes are the formats chosen.
        model = model.withPrecision(weights.bytes(), kvCache.bytes());
        check(tensorParallel >= 1 && tensorParallel <= 64, "tp must be in 1..64, got " + tensorParallel);
        check(schedulerSteps >= 1, "scheduler-steps must be >= 1, got " + schedulerSteps);
        check(maxNumSeqs >= 1, "max-num-seqs must be >= 1, got " + maxNumSeqs);
        check(maxNumBatchedTokens >= 16, "max-num-batched-tokens must be >= 16, got " + maxNumBatchedTokens);
        check(blockSize >= 1, "block size must be >= 1, got " + blockSize);
        check(
                gpuMemoryUtilization > 0 && gpuMemoryUtilization <= 1,
                "gpu-memory-utilization must be in (0, 1], got " + gpuMemoryUtilization);
        check(activationReserveGb >= 0, "activation reserve must be >= 0 GB, got " + activationReserveGb);
        check(maxWaiting >= 0, "max-waiting must be >= 0, got " + maxWaiting);
        check(noise >= 0 && noise <= 1, "noise must be in [0, 1], got " + noise);
        check(
                stallProbability >= 0 && stallProbability <= 1,
                "stall probability must be in [0, 1], got " + stallProbability);
        check(stallMs >= 0, "stall duration must be >= 0 ms, got " + stallMs);
        if (eosLength == null) throw new IllegalArgumentException("engine needs an EOS output-length distribution");
        check(contextPerRequest >= 0, "max-model-len must be >= 0, got " + contextPerRequest);
        if (overContext == null) overContext = OverContext.REFUSE;
        if (drift == null) drift = Drift.NONE;
        if (admission == null) admission = Admission.CHUNK;
        check(
                attentionDataParallel >= 1 && tensorParallel % attentionDataParallel == 0,
                "{sim-dp-attention} must divide {sim-tp} (" + tensorParallel + "), got " + attentionDataParallel);
        check(dataParallel >= 1 && dataParallel <= 1024, "data-parallel must be in 1..1024, got " + dataParallel);
        check(
                disaggregation == null || dataParallel == 1,
                "give {sim-pd} or {sim-data-parallel}, not both: P:D already counts the engines");
    }

    /** Engines in all: the replicas, or the prefill and decode engines. */
    public int engines() {
        return disaggregation == null ? dataParallel : disaggregation.prefill() + disaggregation.decode();
    }

    /** Tokens one request may hold, prompt and answer: {@link #contextPerRequest}, at most the model's context. */
    public int requestContext() {
        return contextPerRequest > 0 ? Math.min(contextPerRequest, model.maxContext()) : model.maxContext();
    }

    /** vLLM-like defaults for a hardware/model pair. */
    public static EngineConfig defaults(HardwareProfile hardware, ModelProfile model) {
        return new EngineConfig(
                hardware,
                model,
                1,
                DEFAULT_MAX_NUM_SEQS,
                DEFAULT_MAX_NUM_BATCHED_TOKENS,
                16,
                0.9,
                1.0,
                DEFAULT_MAX_WAITING,
                DEFAULT_NOISE,
                DEFAULT_STALL_PROBABILITY,
                DEFAULT_STALL_MS,
                new LengthDistribution.LogNormal(256, 200),
                42,
                true,
                null,
                null,
                true,
                true,
                1,
                false,
                0,
                OverContext.REFUSE,
                1,
                null,
                Drift.NONE,
                Admission.CHUNK,
                1,
                false);
    }

    /** A copy to change a few settings of: {@code config.toBuilder().tensorParallel(4).build()}. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public EngineConfig withTensorParallel(int tp) {
        return toBuilder().tensorParallel(tp).build();
    }

    public EngineConfig withMaxNumSeqs(int n) {
        return toBuilder().maxNumSeqs(n).build();
    }

    public EngineConfig withMaxWaiting(int n) {
        return toBuilder().maxWaiting(n).build();
    }

    public EngineConfig withNoise(double sigma, double stallProb, double stallMillis) {
        return toBuilder().noise(sigma, stallProb, stallMillis).build();
    }

    public EngineConfig withEosLength(LengthDistribution d) {
        return toBuilder().eosLength(d).build();
    }

    public EngineConfig withPrefixCaching(boolean on) {
        return toBuilder().prefixCaching(on).build();
    }

    public EngineConfig withSeed(long s) {
        return toBuilder().seed(s).build();
    }

    public EngineConfig withDrift(Drift d) {
        return toBuilder().drift(d).build();
    }

    /** "MODEL on HARDWARE xTP", as results name the simulated server (with the formats when not BF16). */
    public String describe() {
        String formats = weights == Precision.BF16 && kvCache == Precision.BF16
                ? ""
                : " (" + weights.wireName() + " weights, " + kvCache.wireName() + " KV)";
        return model.name() + formats + " on " + hardware.name() + " x" + tensorParallel
                + (dataParallel > 1 ? ", " + dataParallel + " replicas" : "")
                + (attentionDataParallel > 1 ? ", attention data-parallel " + attentionDataParallel : "")
                + (latentTwice() ? ", MLA cache as K and V" : "")
                + (disaggregation != null ? ", prefill:decode " + disaggregation.text() : "");
    }

    /** The settings a run's config.yaml records under {@code simulator}. */
    public Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hardware", hardware.name());
        m.put("model", model.name());
        m.put("tp", tensorParallel);
        if (dataParallel > 1) m.put("data_parallel", dataParallel);
        if (disaggregation != null) {
            m.put("prefill_decode", disaggregation.text());
            m.put("kv_link_gb_s", disaggregation.linkGbS());
        }
        m.put("weight_dtype", weights.wireName());
        m.put("kv_cache_dtype", kvCache.wireName());
        m.put("max_num_seqs", maxNumSeqs);
        m.put("max_num_batched_tokens", maxNumBatchedTokens);
        m.put("chunked_prefill", chunkedPrefill);
        m.put("mixed_batches", mixedBatches);
        m.put("scheduler_steps", schedulerSteps);
        m.put("overlap_scheduling", overlapScheduling);
        m.put("gpu_memory_utilization", gpuMemoryUtilization);
        m.put("context_per_request", requestContext());
        m.put("over_context", overContext.wireName());
        m.put("max_waiting", maxWaiting);
        m.put("noise", noise);
        m.put("prefix_caching", prefixCaching);
        if (admission != Admission.CHUNK) m.put("admission", admission.wireName());
        if (attentionDataParallel > 1) m.put("dp_attention", attentionDataParallel);
        if (latentTwice()) m.put("mla_cache", "k-and-v");
        if (!drift.none()) {
            m.put("drift", drift.change());
            m.put("drift_over_s", drift.seconds());
        }
        return m;
    }

    /**
     * A request's cost outside the engine's steps (HTTP, tokenisation, detokenisation, queueing into the engine):
     * it reaches the scheduler this long after it was sent ({@link StepTerm#REQUEST_OVERHEAD_MS}).
     */
    public long requestOverheadNanos() {
        return Math.round(hardware.term(StepTerm.REQUEST_OVERHEAD_MS) * 1e6);
    }

    /** The front end's serial work per request ({@link StepTerm#FRONTEND_REQUEST_MS}), for a {@link FrontEnd}. */
    public long frontEndRequestNanos() {
        return Math.round(hardware.term(StepTerm.FRONTEND_REQUEST_MS) * 1e6);
    }

    /** The front end's serial work per streamed token ({@link StepTerm#FRONTEND_TOKEN_US}), for a {@link FrontEnd}. */
    public long frontEndTokenNanos() {
        return Math.round(hardware.term(StepTerm.FRONTEND_TOKEN_US) * 1e3);
    }

    /**
     * Bytes of K and V one token takes on each GPU of the attention group that serves its request: KV heads split over
     * the group's GPUs, copied when the group's GPUs exceed them (an MLA latent is whole on each).
     */
    public double kvBytesPerTokenPerGroupGpu() {
        int attentionTp = tensorParallel / attentionDataParallel;
        int headsPerGpu = (model.kvHeads() + attentionTp - 1) / attentionTp;
        return 2.0 * model.layers() * headsPerGpu * model.headDim() * model.kvBytesPerElement() * latentCopies();
    }

    /**
     * Bytes of KV cache a decode step reads per token on one GPU: what it stores, except that an MLA latent stored as
     * K and V is read once (the kernels read the latent from the K half and leave the V half unused).
     */
    public double kvBytesReadPerTokenPerGpu() {
        return kvBytesPerTokenPerGpu() / latentCopies();
    }

    /** The model's MLA latent stored twice, as K and V ({@link #mlaCacheKeyAndValue}). */
    private boolean latentTwice() {
        return mlaCacheKeyAndValue && model.latentKv();
    }

    /** How many times the cache stores each token's KV: twice for a latent stored as K and V, else once. */
    private int latentCopies() {
        return latentTwice() ? 2 : 1;
    }

    /**
     * Bytes of K and V one token takes on one GPU, on average: with attention data-parallel each group holds only its
     * own requests, so a GPU holds a group's share of them.
     */
    public double kvBytesPerTokenPerGpu() {
        return kvBytesPerTokenPerGroupGpu() / attentionDataParallel;
    }

    /**
     * Bytes of weights one GPU holds: a TP share of all of them, and with attention data-parallel the attention
     * layers' share of its attention group instead.
     */
    public double weightBytesPerGpu() {
        return model.weightBytes() / tensorParallel + attentionCopyBytesPerGpu();
    }

    /** Attention weights a GPU holds beyond its TP share: data-parallel attention splits them over fewer GPUs. */
    public double attentionCopyBytesPerGpu() {
        int attentionTp = tensorParallel / attentionDataParallel;
        return model.attention() * model.bytesPerWeight() * (1.0 / attentionTp - 1.0 / tensorParallel);
    }

    /** KV-cache blocks that fit beside the weights; throws when the model does not fit at all. */
    public int kvBlocks() {
        double perGpuBytes =
                hardware.memoryGb() * 1e9 * gpuMemoryUtilization - activationReserveGb * 1e9 - weightBytesPerGpu();
        long tokens = (long) Math.floor(perGpuBytes / kvBytesPerTokenPerGpu());
        if (tokens < blockSize) {
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "model %s does not fit on %s with tp=%d: weights need %.1f GB per GPU, %.1f GB usable; raise {tp}",
                    model.name(),
                    hardware.name(),
                    tensorParallel,
                    weightBytesPerGpu() / 1e9,
                    hardware.memoryGb() * gpuMemoryUtilization - activationReserveGb));
        }
        return (int) Math.min(Integer.MAX_VALUE, tokens / blockSize);
    }

    private static void check(boolean ok, String message) {
        if (!ok) throw new BadInputException(message);
    }

    /** Settings changed one at a time on a copy; {@link #build} validates them together. */
    public static final class Builder {
        private HardwareProfile hardware;
        private ModelProfile model;
        private int tensorParallel;
        private int maxNumSeqs;
        private int maxNumBatchedTokens;
        private int blockSize;
        private double gpuMemoryUtilization;
        private double activationReserveGb;
        private int maxWaiting;
        private double noise;
        private double stallProbability;
        private double stallMs;
        private LengthDistribution eosLength;
        private long seed;
        private boolean prefixCaching;
        private Precision weights;
        private Precision kvCache;
        private boolean chunkedPrefill;
        private boolean mixedBatches;
        private int schedulerSteps;
        private boolean overlapScheduling;
        private int contextPerRequest;
        private OverContext overContext;
        private int dataParallel;
        private Disaggregation disaggregation;
        private Drift drift;
        private Admission admission;
        private int attentionDataParallel;
        private boolean mlaCacheKeyAndValue;

        private Builder(EngineConfig c) {
            hardware = c.hardware;
            model = c.model;
            tensorParallel = c.tensorParallel;
            maxNumSeqs = c.maxNumSeqs;
            maxNumBatchedTokens = c.maxNumBatchedTokens;
            blockSize = c.blockSize;
            gpuMemoryUtilization = c.gpuMemoryUtilization;
            activationReserveGb = c.activationReserveGb;
            maxWaiting = c.maxWaiting;
            noise = c.noise;
            stallProbability = c.stallProbability;
            stallMs = c.stallMs;
            eosLength = c.eosLength;
            seed = c.seed;
            prefixCaching = c.prefixCaching;
            weights = c.weights;
            kvCache = c.kvCache;
            chunkedPrefill = c.chunkedPrefill;
            mixedBatches = c.mixedBatches;
            schedulerSteps = c.schedulerSteps;
            overlapScheduling = c.overlapScheduling;
            contextPerRequest = c.contextPerRequest;
            overContext = c.overContext;
            drift = c.drift;
            admission = c.admission;
            attentionDataParallel = c.attentionDataParallel;
            mlaCacheKeyAndValue = c.mlaCacheKeyAndValue;
            dataParallel = c.dataParallel;
            disaggregation = c.disaggregation;
        }

        public Builder contextPerRequest(int n) {
            contextPerRequest = n;
            return this;
        }

        /** Replicas behind a least-loaded balancer (see {@link EngineConfig#dataParallel}). */
        public Builder dataParallel(int n) {
            dataParallel = n;
            return this;
        }

        /** Prefill and decode engines apart (see {@link EngineConfig#disaggregation}); null for none. */
        public Builder disaggregation(Disaggregation d) {
            disaggregation = d;
            return this;
        }

        public Builder overContext(OverContext o) {
            overContext = o;
            return this;
        }

        public Builder hardware(HardwareProfile h) {
            hardware = h;
            return this;
        }

        public Builder tensorParallel(int tp) {
            tensorParallel = tp;
            return this;
        }

        public Builder maxNumSeqs(int n) {
            maxNumSeqs = n;
            return this;
        }

        public Builder maxNumBatchedTokens(int n) {
            maxNumBatchedTokens = n;
            return this;
        }

        public Builder blockSize(int n) {
            blockSize = n;
            return this;
        }

        public Builder gpuMemoryUtilization(double f) {
            gpuMemoryUtilization = f;
            return this;
        }

        public Builder maxWaiting(int n) {
            maxWaiting = n;
            return this;
        }

        public Builder noise(double sigma, double stallProb, double stallMillis) {
            noise = sigma;
            stallProbability = stallProb;
            stallMs = stallMillis;
            return this;
        }

        public Builder eosLength(LengthDistribution d) {
            eosLength = d;
            return this;
        }

        public Builder seed(long s) {
            seed = s;
            return this;
        }

        public Builder prefixCaching(boolean on) {
            prefixCaching = on;
            return this;
        }

        public Builder weights(Precision p) {
            weights = p;
            return this;
        }

        public Builder kvCache(Precision p) {
            kvCache = p;
            return this;
        }

        public Builder chunkedPrefill(boolean on) {
            chunkedPrefill = on;
            return this;
        }

        public Builder mixedBatches(boolean on) {
            mixedBatches = on;
            return this;
        }

        public Builder schedulerSteps(int n) {
            schedulerSteps = n;
            return this;
        }

        public Builder overlapScheduling(boolean on) {
            overlapScheduling = on;
            return this;
        }

        public Builder drift(Drift d) {
            drift = d;
            return this;
        }

        public Builder admission(Admission a) {
            admission = a;
            return this;
        }

        /** Attention data-parallel groups (see {@link EngineConfig#attentionDataParallel}); 1 for none. */
        public Builder attentionDataParallel(int n) {
            attentionDataParallel = n;
            return this;
        }

        /** Whether the engine stores an MLA latent as K and V both (see {@link EngineConfig#mlaCacheKeyAndValue}). */
        public Builder mlaCacheKeyAndValue(boolean twice) {
            mlaCacheKeyAndValue = twice;
            return this;
        }

        public EngineConfig build() {
            return new EngineConfig(
                    hardware,
                    model,
                    tensorParallel,
                    maxNumSeqs,
                    maxNumBatchedTokens,
                    blockSize,
                    gpuMemoryUtilization,
                    activationReserveGb,
                    maxWaiting,
                    noise,
                    stallProbability,
                    stallMs,
                    eosLength,
                    seed,
                    prefixCaching,
                    weights,
                    kvCache,
                    chunkedPrefill,
                    mixedBatches,
                    schedulerSteps,
                    overlapScheduling,
                    contextPerRequest,
                    overContext,
                    dataParallel,
                    disaggregation,
                    drift,
                    admission,
                    attentionDataParallel,
                    mlaCacheKeyAndValue);
        }
    }
}
