package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import picocli.CommandLine.Option;

/** Options that shape the simulated engine; shared by every command that can run the simulator. */
public final class EngineOptions {
    @Option(names = "--hardware", paramLabel = "NAME|FILE", defaultValue = "h100-sxm",
            description = "Hardware profile: a name from configs/hardware or a YAML file (default: ${DEFAULT-VALUE}).")
    String hardware;

    @Option(names = "--model", paramLabel = "NAME|FILE", defaultValue = "llama-3.1-8b",
            description = "Model profile: a name from configs/models or a YAML file (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--tp", paramLabel = "N", defaultValue = "1", description = "Tensor-parallel degree (default: ${DEFAULT-VALUE}).")
    int tp;

    @Option(names = "--max-num-seqs", paramLabel = "N", defaultValue = "" + EngineConfig.DEFAULT_MAX_NUM_SEQS,
            description = "Most sequences per batch (default: ${DEFAULT-VALUE}).")
    int maxNumSeqs;

    @Option(names = "--max-num-batched-tokens", paramLabel = "N", defaultValue = "" + EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS,
            description = "Token budget per step; longer prompts are prefilled in chunks (default: ${DEFAULT-VALUE}).")
    int maxNumBatchedTokens;

    @Option(names = "--gpu-memory-utilization", paramLabel = "F", defaultValue = "0.9",
            description = "Fraction of GPU memory for weights + KV cache (default: ${DEFAULT-VALUE}).")
    double gpuMemoryUtilization;

    @Option(names = "--max-waiting", paramLabel = "N", defaultValue = "" + EngineConfig.DEFAULT_MAX_WAITING,
            description = "Longest waiting queue; beyond it requests get HTTP 429 (default: ${DEFAULT-VALUE}).")
    int maxWaiting;

    @Option(names = "--noise", paramLabel = "SIGMA", defaultValue = "" + EngineConfig.DEFAULT_NOISE,
            description = "Per-step log-normal jitter sigma; 0 for none (default: ${DEFAULT-VALUE}).")
    double noise;

    @Option(names = "--stall-probability", paramLabel = "P", defaultValue = "0.0001",
            description = "Chance that an engine step stalls (default: ${DEFAULT-VALUE}).")
    double stallProbability;

    @Option(names = "--stall-ms", paramLabel = "MS", defaultValue = "" + EngineConfig.DEFAULT_STALL_MS,
            description = "Length of an engine stall in ms (default: ${DEFAULT-VALUE}).")
    double stallMs;

    @Option(names = "--eos-length", paramLabel = "DIST", defaultValue = "lognormal:256,200",
            description = "Output length when a request does not set ignore_eos: N, fixed:N, normal:MEAN,SD, "
                    + "uniform:MIN,MAX or lognormal:MEAN,SD (default: ${DEFAULT-VALUE}).")
    String eosLength;

    @Option(names = "--prefix-caching", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Automatic prefix caching as vLLM does it: full 16-token prompt blocks already in the KV cache "
                    + "are not prefilled again (default: on; --no-prefix-caching turns it off).")
    boolean prefixCaching;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed for noise, lengths and faults (default: ${DEFAULT-VALUE}).")
    long seed;

    /** Builds and validates the engine configuration; bad values raise BadInputException (exit 2). */
    public EngineConfig toConfig() {
        var base = EngineConfig.defaults(Profiles.hardware(hardware), Profiles.model(model));
        var config = new EngineConfig(base.hardware(), base.model(), tp, maxNumSeqs, maxNumBatchedTokens,
                base.blockSize(), gpuMemoryUtilization, base.activationReserveGb(), maxWaiting, noise,
                stallProbability, stallMs, LengthDistribution.parse(eosLength), seed, prefixCaching);
        config.kvBlocks(); // a model that does not fit is bad input, reported now
        return config;
    }
}
