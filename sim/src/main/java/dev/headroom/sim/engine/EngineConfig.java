package dev.headroom.sim.engine;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Everything that shapes the simulated engine: hardware, model, parallelism, vLLM-style scheduler limits,
 * noise and the seed.
 *
 * @param tensorParallel        GPUs the model is sharded over
 * @param maxNumSeqs            most sequences in one batch (vLLM {@code max_num_seqs})
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
        boolean prefixCaching) {

    public static final int DEFAULT_MAX_NUM_SEQS = 256;
    public static final int DEFAULT_MAX_NUM_BATCHED_TOKENS = 8192;
    public static final int DEFAULT_MAX_WAITING = 4096;
    public static final double DEFAULT_NOISE = 0.02;
    public static final double DEFAULT_STALL_PROBABILITY = 1e-4;
    public static final double DEFAULT_STALL_MS = 25;

    public EngineConfig {
        if (hardware == null || model == null) throw new IllegalArgumentException("engine needs hardware and model");
        check(tensorParallel >= 1 && tensorParallel <= 64, "tp must be in 1..64, got " + tensorParallel);
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
                true);
    }

    public EngineConfig withTensorParallel(int tp) {
        return new EngineConfig(
                hardware,
                model,
                tp,
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
                prefixCaching);
    }

    public EngineConfig withMaxNumSeqs(int n) {
        return new EngineConfig(
                hardware,
                model,
                tensorParallel,
                n,
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
                prefixCaching);
    }

    public EngineConfig withMaxWaiting(int n) {
        return new EngineConfig(
                hardware,
                model,
                tensorParallel,
                maxNumSeqs,
                maxNumBatchedTokens,
                blockSize,
                gpuMemoryUtilization,
                activationReserveGb,
                n,
                noise,
                stallProbability,
                stallMs,
                eosLength,
                seed,
                prefixCaching);
    }

    public EngineConfig withNoise(double sigma, double stallProb, double stallMillis) {
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
                sigma,
                stallProb,
                stallMillis,
                eosLength,
                seed,
                prefixCaching);
    }

    /** "MODEL on HARDWARE xTP", as results name the simulated server. */
    public String describe() {
        return model.name() + " on " + hardware.name() + " x" + tensorParallel;
    }

    /** The settings a run's config.yaml records under {@code simulator}. */
    public Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hardware", hardware.name());
        m.put("model", model.name());
        m.put("tp", tensorParallel);
        m.put("max_num_seqs", maxNumSeqs);
        m.put("noise", noise);
        m.put("prefix_caching", prefixCaching);
        return m;
    }

    public EngineConfig withEosLength(LengthDistribution d) {
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
                d,
                seed,
                prefixCaching);
    }

    public EngineConfig withPrefixCaching(boolean on) {
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
                on);
    }

    public EngineConfig withSeed(long s) {
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
                s,
                prefixCaching);
    }

    /** KV-cache blocks that fit beside the weights; throws when the model does not fit at all. */
    public int kvBlocks() {
        double perGpuBytes = hardware.memoryGb() * 1e9 * gpuMemoryUtilization
                - activationReserveGb * 1e9
                - model.weightBytes() / tensorParallel;
        double perTokenPerGpu = model.kvBytesPerToken() / tensorParallel;
        long tokens = (long) Math.floor(perGpuBytes / perTokenPerGpu);
        if (tokens < blockSize) {
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "model %s does not fit on %s with tp=%d: weights need %.1f GB per GPU, %.1f GB usable; raise {tp}",
                    model.name(),
                    hardware.name(),
                    tensorParallel,
                    model.weightBytes() / tensorParallel / 1e9,
                    hardware.memoryGb() * gpuMemoryUtilization - activationReserveGb));
        }
        return (int) Math.min(Integer.MAX_VALUE, tokens / blockSize);
    }

    private static void check(boolean ok, String message) {
        if (!ok) throw new BadInputException(message);
    }
}
