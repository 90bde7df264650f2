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
    @Option(
            names = "--sim-hardware",
            paramLabel = "NAME|FILE",
            defaultValue = "h100-sxm",
            description = "Simulator: hardware profile, a name from configs/hardware or a YAML file (default: "
                    + "${DEFAULT-VALUE}).")
    String hardware;

    @Option(
            names = "--sim-model",
            paramLabel = "NAME|FILE",
            defaultValue = "llama-3.1-8b",
            description =
                    "Simulator: model profile, a name from configs/models or a YAML file (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(
            names = "--sim-tp",
            paramLabel = "N",
            defaultValue = "1",
            description = "Simulator: tensor-parallel degree (default: ${DEFAULT-VALUE}).")
    int tp;

    @Option(
            names = "--sim-server",
            paramLabel = "vllm|sglang|llama.cpp|tgi|ollama",
            defaultValue = "vllm",
            description = "Simulator: the server to imitate — its introspection endpoints, error bodies, /tokenize, "
                    + "connection handling and default limits (llama.cpp: 4 slots of 1024 tokens; ollama: 4 of "
                    + "4096, cut to fit; tgi: whole prompts, 128 admitted; sglang: prefill apart, decided ahead); "
                    + "the --sim- options override its limits (default: ${DEFAULT-VALUE}).")
    String server;

    @Option(
            names = "--sim-chat-template",
            paramLabel = "simple|llama-3.1",
            defaultValue = "simple",
            description = "Simulator over HTTP: what the served model's chat template adds to a chat — simple (a few "
                    + "tokens a message) or llama-3.1 (its system block with the date lines, in every chat) (default: "
                    + "${DEFAULT-VALUE}).")
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

    @Option(
            names = "--sim-max-model-len",
            paramLabel = "N",
            description = "Simulator: tokens one request may hold, prompt and answer (vLLM --max-model-len; "
                    + "llama.cpp's context per slot); default: the model's context, or the --sim-server's.")
    Integer maxModelLen;

    @Option(
            names = "--sim-gpu-memory-utilization",
            paramLabel = "F",
            defaultValue = "0.9",
            description = "Simulator: fraction of GPU memory for weights + KV cache (default: ${DEFAULT-VALUE}).")
    double gpuMemoryUtilization;

    @Option(
            names = "--sim-max-waiting",
            paramLabel = "N",
            defaultValue = "" + EngineConfig.DEFAULT_MAX_WAITING,
            description =
                    "Simulator: longest waiting queue; beyond it requests get HTTP 429 (default: ${DEFAULT-VALUE}).")
    int maxWaiting;

    @Option(
            names = "--sim-engine",
            paramLabel = "vllm|sglang|trtllm|FILE",
            description = "Simulator: the engine software's own costs (request, step and per-sequence overheads) from "
                    + "configs/engines; default: the hardware profile's, which are vLLM's.")
    String engine;

    @Option(
            names = "--profile",
            paramLabel = "FILE",
            description = "Simulator: a twin from headroom calibrate (calibration.yaml): its engine, formats, "
                    + "scheduler and fitted step terms replace --sim-hardware/-model/-tp and the scheduler "
                    + "options; noise, seed and the queue bound still come from the --sim- options.")
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
                profile);
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
