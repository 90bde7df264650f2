package dev.headroom.cli;

import dev.headroom.model.LengthDistribution;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.sim.Imitation;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.OverContext;
import dev.headroom.sim.fidelity.Calibration;
import dev.headroom.sim.http.ChatTemplate;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.profile.EngineProfile;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The simulated engine, in one vocabulary for every command that runs it: {@code --sim-*}. The spellings without
 * the prefix ({@code --hardware}, {@code --tp}, …) are still accepted ({@link #canonical}), as scripts have them;
 * {@code --sim-model} has none here, as {@code --model} names the target's model ({@code sim} adds it back).
 */
public final class SimulatorOptions {
    /** The spellings without the prefix that scripts use, each with the option it means; help shows only the latter. */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("--hardware", "--sim-hardware"),
            Map.entry("--tp", "--sim-tp"),
            Map.entry("--max-num-seqs", "--sim-max-num-seqs"),
            Map.entry("--max-num-batched-tokens", "--sim-max-num-batched-tokens"),
            Map.entry("--gpu-memory-utilization", "--sim-gpu-memory-utilization"),
            Map.entry("--max-waiting", "--sim-max-waiting"),
            Map.entry("--noise", "--sim-noise"),
            Map.entry("--stall-probability", "--sim-stall-probability"),
            Map.entry("--stall-ms", "--sim-stall-ms"),
            Map.entry("--eos-length", "--sim-eos-length"),
            Map.entry("--prefix-caching", "--sim-prefix-caching"),
            Map.entry("--no-prefix-caching", "--no-sim-prefix-caching"),
            Map.entry("--kv-cache-dtype", "--sim-kv-cache-dtype"));

    /**
     * {@code args} with every alias spelled as its {@code --sim-*} option, when the command named takes the
     * simulator's options (to any other command an alias stays what it is: an unknown option).
     */
    static String[] canonical(CommandLine root, String[] args) {
        for (int i = 0; i < args.length; i++) {
            CommandLine command = root.getSubcommands().get(args[i]);
            if (command == null) continue;
            if (command.getCommandSpec().findOption("--sim-hardware") == null) return args;
            String[] out = args.clone();
            for (int j = i + 1; j < out.length; j++) {
                int eq = out[j].indexOf('=');
                String canonical = ALIASES.get(eq < 0 ? out[j] : out[j].substring(0, eq));
                if (canonical != null) out[j] = canonical + (eq < 0 ? "" : out[j].substring(eq));
            }
            return out;
        }
        return args;
    }

    /** The option a config-file key or an alias names: {@code hardware} is {@code --sim-hardware}. */
    static String canonical(String option) {
        return ALIASES.getOrDefault(option, option);
    }

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

    /** The server imitated. */
    ServerKind kind() {
        return Imitation.parseKind(server);
    }

    /** How the embedded HTTP server behaves: as the imitated server does. */
    ServerBehaviour behaviour() {
        return ServerBehaviour.imitating(kind()).withChatTemplate(ChatTemplate.parse(chatTemplate));
    }

    /** The engine configuration, validated (a model that does not fit is bad input, reported now). */
    EngineConfig toConfig(long seed) {
        Imitation as = Imitation.of(kind());
        if (profile != null) {
            EngineConfig twin = Calibration.read(profile).toBuilder()
                    .maxWaiting(maxWaiting)
                    .noise(noise, stallProbability, stallMs)
                    .eosLength(LengthDistribution.parse(eosLength))
                    .seed(seed)
                    .prefixCaching(prefixCaching)
                    .build();
            twin.kvBlocks();
            return twin;
        }
        ModelProfile m = Profiles.model(model);
        HardwareProfile hw = Profiles.hardware(hardware);
        EngineProfile software = engine == null ? null : Profiles.engine(engine);
        if (software != null) hw = software.applyTo(hw);
        int seqs = firstSet(maxNumSeqs, as.maxNumSeqs(), EngineConfig.DEFAULT_MAX_NUM_SEQS);
        int waiting = as.admitted() != null ? Math.max(0, as.admitted() - seqs) : maxWaiting;
        var config = EngineConfig.defaults(hw, m).toBuilder()
                .tensorParallel(tp)
                .maxNumSeqs(seqs)
                .maxNumBatchedTokens(firstSet(
                        maxNumBatchedTokens, as.maxNumBatchedTokens(), EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS))
                .contextPerRequest(firstSet(maxModelLen, as.contextPerRequest(), 0))
                .overContext(as.overContext() != null ? as.overContext() : OverContext.REFUSE)
                .gpuMemoryUtilization(gpuMemoryUtilization)
                .maxWaiting(waiting)
                .noise(noise, stallProbability, stallMs)
                .eosLength(LengthDistribution.parse(eosLength))
                .seed(seed)
                .prefixCaching(prefixCaching)
                .weights(Precision.parseWeights(
                        weightDtype, Precision.ofBytes(m.bytesPerWeight()), "--sim-weight-dtype"))
                .kvCache(Precision.parseKvCache(
                        kvCacheDtype, Precision.ofBytes(m.kvBytesPerElement()), "--sim-kv-cache-dtype"))
                .chunkedPrefill(firstSet(chunkedPrefill, as.chunkedPrefill(), true))
                .mixedBatches(firstSet(
                        mixedBatches,
                        software != null && software.mixedBatches() != null
                                ? software.mixedBatches()
                                : as.mixedBatches(),
                        true))
                .schedulerSteps(schedulerSteps)
                .overlapScheduling(firstSet(
                        overlapScheduling,
                        software != null && software.overlapScheduling() != null
                                ? software.overlapScheduling()
                                : as.overlapScheduling(),
                        false))
                .build();
        config.kvBlocks();
        return config;
    }

    /** The option as given, else the engine profile's or imitated server's default, else vLLM's. */
    private static <T> T firstSet(T given, T engineDefault, T vllm) {
        return given != null ? given : engineDefault != null ? engineDefault : vllm;
    }
}
