package dev.headroom.cli;

import dev.headroom.sim.SimulatorSettings;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The simulated engine, in one vocabulary for every command that runs it: {@code --sim-*}. The spellings without
 * the prefix ({@code --hardware}, {@code --tp}, …) are still accepted ({@link SimulatorAliases}), as scripts have them;
 * {@code --sim-model} has none here, as {@code --model} names the target's model ({@code sim} adds it back).
 */
public final class SimulatorOptions {
    @Option(names = "--sim-hardware", paramLabel = "NAME|FILE", defaultValue = "h100-sxm")
    String hardware;

    @Option(names = "--sim-model", paramLabel = "NAME|FILE", defaultValue = "llama-3.1-8b")
    String model;

    @Option(names = "--sim-tp", paramLabel = "N", defaultValue = "1")
    int tp;

    @Option(names = "--sim-data-parallel", paramLabel = "N", defaultValue = "1")
    int dataParallel;

    @Option(names = "--sim-dp-attention", paramLabel = "N", defaultValue = "1")
    int attentionDataParallel;

    @Option(names = "--sim-pd", paramLabel = "P:D")
    String pd;

    @Option(names = "--sim-pd-link-gb-s", paramLabel = "GB/S", defaultValue = "50")
    double pdLinkGbS;

    @Option(names = "--sim-server", paramLabel = "vllm|sglang|llama.cpp|tgi|ollama", defaultValue = "vllm")
    String server;

    @Option(names = "--sim-chat-template", paramLabel = "simple|llama-3.1", defaultValue = "simple")
    String chatTemplate;

    @Option(
            names = "--sim-max-num-seqs",
            paramLabel = "N",
            description = "Simulator: most sequences per batch; slots, imitating llama.cpp (default: "
                    + EngineConfig.DEFAULT_MAX_NUM_SEQS + ", or the --sim-server's).")
    Integer maxNumSeqs;

    @Option(
            names = "--sim-max-num-batched-tokens",
            paramLabel = "N",
            description = "Simulator: token budget per step; longer prompts are prefilled in chunks (default: "
                    + EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS + ", or the --sim-server's).")
    Integer maxNumBatchedTokens;

    @Option(names = "--sim-max-model-len", paramLabel = "N")
    Integer maxModelLen;

    @Option(names = "--sim-gpu-memory-utilization", paramLabel = "F", defaultValue = "0.9")
    double gpuMemoryUtilization;

    @Option(names = "--sim-max-waiting", paramLabel = "N", defaultValue = "" + EngineConfig.DEFAULT_MAX_WAITING)
    int maxWaiting;

    @Option(names = "--sim-engine", paramLabel = "vllm|vllm-v0|sglang|trtllm|FILE")
    String engine;

    @Option(names = "--profile", paramLabel = "FILE")
    Path profile;

    @Mixin
    SimulatorBehaviourOptions behaviour;

    /** The options as the simulator's value. */
    SimulatorSettings settings() {
        SimulatorBehaviourOptions b = behaviour;
        return new SimulatorSettings(
                hardware,
                model,
                tp,
                dataParallel,
                attentionDataParallel,
                pd,
                pdLinkGbS,
                server,
                chatTemplate,
                maxNumSeqs,
                maxNumBatchedTokens,
                maxModelLen,
                gpuMemoryUtilization,
                maxWaiting,
                b.noise,
                b.stallProbability,
                b.stallMs,
                b.eosLength,
                b.prefixCaching,
                b.weightDtype,
                b.kvCacheDtype,
                b.chunkedPrefill,
                b.mixedBatches,
                b.schedulerSteps,
                b.overlapScheduling,
                engine,
                profile,
                b.drift,
                b.driftOver.toNanos() / 1e9);
    }

    /** How the embedded HTTP server behaves: as the imitated server does. */
    ServerBehaviour behaviour() {
        return settings().behaviour();
    }

    /** The engine configuration, validated (a model that does not fit is bad input, reported now). */
    EngineConfig toConfig(long seed) {
        return settings().config(seed);
    }
}
