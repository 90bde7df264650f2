package dev.headroom.cli;

import dev.headroom.sim.engine.EngineConfig;
import picocli.CommandLine.Option;

/** The simulated engine's noise, stalls, output lengths, number formats and scheduling: {@code --sim-*}. */
public final class SimulatorBehaviourOptions {
    @Option(
            names = "--sim-noise",
            paramLabel = "SIGMA",
            defaultValue = "" + EngineConfig.DEFAULT_NOISE,
            description = "Simulator: per-step log-normal jitter sigma; 0 for none (default: ${DEFAULT-VALUE}).")
    double noise;

    @Option(
            names = "--sim-stall-probability",
            paramLabel = "P",
            defaultValue = "" + EngineConfig.DEFAULT_STALL_PROBABILITY,
            description = "Simulator: chance that an engine step stalls (default: ${DEFAULT-VALUE}).")
    double stallProbability;

    @Option(
            names = "--sim-stall-ms",
            paramLabel = "MS",
            defaultValue = "" + EngineConfig.DEFAULT_STALL_MS,
            description = "Simulator: length of an engine stall in ms (default: ${DEFAULT-VALUE}).")
    double stallMs;

    @Option(
            names = "--sim-eos-length",
            paramLabel = "DIST",
            defaultValue = "lognormal:256,200",
            description = "Simulator: output length when a request does not set ignore_eos: N, fixed:N, "
                    + "normal:MEAN,SD, uniform:MIN,MAX or lognormal:MEAN,SD (default: ${DEFAULT-VALUE}).")
    String eosLength;

    @Option(
            names = "--sim-prefix-caching",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Simulator: automatic prefix caching as vLLM does it: full 16-token "
                    + "prompt blocks already in the KV cache are not prefilled again (default: on; "
                    + "--no-sim-prefix-caching "
                    + "turns it off).")
    boolean prefixCaching;

    @Option(
            names = "--sim-weight-dtype",
            paramLabel = "auto|bf16|fp16|fp8|int8|int4",
            defaultValue = "auto",
            description = "Simulator: the weights' format; auto is the model profile's (default: ${DEFAULT-VALUE}).")
    String weightDtype;

    @Option(
            names = "--sim-kv-cache-dtype",
            paramLabel = "auto|bf16|fp16|fp8",
            defaultValue = "auto",
            description = "Simulator: the KV cache's format, apart from the weights' (vLLM --kv-cache-dtype); auto "
                    + "is the model profile's (default: ${DEFAULT-VALUE}).")
    String kvCacheDtype;

    @Option(
            names = "--sim-chunked-prefill",
            negatable = true,
            fallbackValue = "true",
            description = "Simulator: prefill long prompts in chunks beside the decodes, as vLLM does (default: on; "
                    + "--no-sim-chunked-prefill prefills whole prompts in steps of their own, as TGI does).")
    Boolean chunkedPrefill;

    @Option(
            names = "--sim-mixed-batches",
            negatable = true,
            fallbackValue = "true",
            description = "Simulator: with chunked prefill, prompt chunks and decodes share a step, as vLLM does "
                    + "(default: on, or the --sim-engine's; --no-sim-mixed-batches runs a step of prefills whenever "
                    + "a prompt waits and the decodes in steps of their own, as SGLang does without "
                    + "--enable-mixed-chunk).")
    Boolean mixedBatches;

    @Option(
            names = "--sim-scheduler-steps",
            paramLabel = "N",
            defaultValue = "1",
            description = "Simulator: multi-step scheduling (vLLM --num-scheduler-steps): the batch decodes N steps "
                    + "per scheduling, admitting nothing, and streams their tokens together "
                    + "(default: ${DEFAULT-VALUE}).")
    int schedulerSteps;

    @Option(
            names = "--sim-overlap-scheduling",
            negatable = true,
            fallbackValue = "true",
            description = "Simulator: the scheduler decides each step while the one before runs, as SGLang 0.4+ "
                    + "and TensorRT-LLM's PyTorch backend do: a request arriving while the engine is busy waits "
                    + "one step more (default: off as in vLLM, or the --sim-engine's).")
    Boolean overlapScheduling;
}
