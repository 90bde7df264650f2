package dev.headroom.cli;

import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import picocli.CommandLine.Option;

/** What the embedded simulator simulates when a measuring command gets no --url. */
public final class SimTargetOptions {
    @Option(names = "--sim-hardware", paramLabel = "NAME|FILE", defaultValue = "h100-sxm",
            description = "Embedded simulator: hardware profile (default: ${DEFAULT-VALUE}).")
    String hardware;

    @Option(names = "--sim-model", paramLabel = "NAME|FILE", defaultValue = "llama-3.1-8b",
            description = "Embedded simulator: model profile (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--sim-tp", paramLabel = "N", defaultValue = "1", description = "Embedded simulator: tensor parallelism (default: ${DEFAULT-VALUE}).")
    int tp;

    @Option(names = "--sim-max-num-seqs", paramLabel = "N", defaultValue = "" + EngineConfig.DEFAULT_MAX_NUM_SEQS,
            description = "Embedded simulator: most sequences per batch (default: ${DEFAULT-VALUE}).")
    int maxNumSeqs;

    @Option(names = "--sim-noise", paramLabel = "SIGMA", defaultValue = "" + EngineConfig.DEFAULT_NOISE,
            description = "Embedded simulator: per-step jitter sigma (default: ${DEFAULT-VALUE}).")
    double noise;

    @Option(names = "--sim-prefix-caching", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Embedded simulator: automatic prefix caching, as vLLM (default: on; --no-sim-prefix-caching "
                    + "turns it off).")
    boolean prefixCaching;

    EngineConfig toConfig(long seed) {
        EngineConfig c = EngineConfig.defaults(Profiles.hardware(hardware), Profiles.model(model))
                .withTensorParallel(tp).withMaxNumSeqs(maxNumSeqs).withPrefixCaching(prefixCaching)
                .withNoise(noise, EngineConfig.DEFAULT_STALL_PROBABILITY, EngineConfig.DEFAULT_STALL_MS).withSeed(seed);
        c.kvBlocks();
        return c;
    }
}
