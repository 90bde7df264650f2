package dev.headroom.sim.fidelity;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.SloStat;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.RateWindow;
import dev.headroom.model.fit.Target;
import dev.headroom.sim.engine.Admission;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.EngineProfile;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Published serving results ({@code schema: headroom.published/v1}, e.g. bench/fidelity/published.yaml): each entry a
 * load point of a named engine on named hardware, with the numbers its source reported. Each becomes an
 * {@link Observation} (grouped by hardware profile, sourced by publication) and the engine configuration that
 * simulates it: the entry's hardware, model, TP and number formats, its engine's default scheduler limits (the file's
 * {@code engines} table), no noise.
 */
public final class Published {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern MAJOR_MINOR = Pattern.compile("\\d+\\.\\d+");
    /** The seed every entry is simulated with. */
    public static final long SEED = 42;

    /**
     * One usable entry: what was observed, the engine that simulates it (its terms as shipped), the engine profile
     * whose terms it carries (null: none, the hardware's own), and the engine release that served it
     * ({@code ENGINE@MAJOR.MINOR}, or {@code ENGINE@unknown}): the unit a leave-one-engine-version-out check holds out.
     *
     * @param inProcess measured by a benchmark inside the engine's process (trtllm-bench, vLLM's benchmark_latency,
     *                  SGLang's bench_offline_throughput): no API server in the path, no request overhead, no front end
     */
    public record Entry(
            Observation observation, EngineConfig config, String engine, String release, boolean inProcess) {
        /** The engine with the costs of an API server (its request overhead, its front end) only when one served. */
        public EngineConfig served(HardwareProfile hw) {
            HardwareProfile out = hw;
            if (inProcess) {
                out = out.with(StepTerm.REQUEST_OVERHEAD_MS, 0);
                for (StepTerm t : StepTerm.FRONT_END) out = out.with(t, 0);
            }
            return config.toBuilder().hardware(out).build();
        }
    }

    /** The observation tag of an engine profile's parameters. */
    public static String engineTag(String engineProfile) {
        return "engine:" + engineProfile;
    }

    /** The entries of a file: those scored, and how many were kept for the record only ({@code exclude}). */
    public record Results(List<Entry> entries, int excluded) {}

    private Published() {}

    public static Results read(Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readAllBytes(file));
        } catch (JacksonException e) {
            throw new BadInputException(file + ": not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (root == null || !"headroom.published/v1".equals(root.path("schema").asText())) {
            throw new BadInputException(file + ": expected schema: headroom.published/v1");
        }
        List<Entry> entries = new ArrayList<>();
        int excluded = 0;
        for (JsonNode e : root.path("results")) {
            if (e.hasNonNull("exclude")) {
                excluded++;
                continue;
            }
            try {
                entries.add(entry(root.path("engines"), e));
            } catch (IllegalArgumentException ex) {
                throw new BadInputException(file + ": entry " + e.path("id").asText("?") + ": " + ex.getMessage());
            }
        }
        return new Results(entries, excluded);
    }

    private static Entry entry(JsonNode engines, JsonNode e) {
        String id = text(e, "id");
        HardwareProfile hw = Profiles.hardware(text(e, "hardware"));
        ModelProfile model = Profiles.model(text(e, "model_profile"));
        String engine = text(e, "engine");
        Matcher version = MAJOR_MINOR.matcher(e.path("engine_version").asText(""));
        String release = engine + "@" + (version.find() ? version.group() : "unknown");
        String client = e.path("client").asText("http");
        if (!client.equals("http") && !client.equals("in-process")) {
            throw new IllegalArgumentException("client must be http or in-process, got " + client);
        }
        // The engine's defaults, then what the source's own launch command set (its `server` settings).
        JsonNode defaults =
                onGpu(scheduler(engines, engine, e.path("engine_version").asText("")), hw);
        JsonNode server = e.path("server");
        if (!server.isMissingNode() && !server.isObject()) {
            // A YAML alias (*name) reads as its name: the settings would be lost without a word.
            throw new IllegalArgumentException("server must be a mapping of settings (YAML aliases are not read; write"
                    + " them out), got " + server);
        }
        Precision weights = Precision.parseWeights(
                unknownIsAuto(e.path("weights").asText()), Precision.ofBytes(model.bytesPerWeight()), "weights");
        // A KV format the source did not state is the engine's default for those weights (the file says which).
        String kvDefault = weights.fp8Compute()
                ? setting(server, defaults, "kv_cache_with_fp8_weights").asText("bf16")
                : "bf16";
        // The engine software's own terms, from its profile (configs/engines), over the hardware's.
        String profile = defaults.path("profile").asText(engine);
        EngineProfile software = Profiles.engineNames().contains(profile) ? Profiles.engine(profile) : null;
        if (software != null) hw = software.applyTo(hw);
        EngineConfig config = EngineConfig.defaults(hw, model).toBuilder()
                .tensorParallel(e.path("tp").asInt())
                .weights(weights)
                .kvCache(Precision.parseKvCache(
                        unknownIsAuto(e.path("kv_cache").asText()),
                        Precision.parseKvCache(kvDefault, Precision.BF16, "kv_cache_with_fp8_weights"),
                        "kv_cache"))
                .maxNumSeqs(setting(server, defaults, "max_num_seqs").asInt(EngineConfig.DEFAULT_MAX_NUM_SEQS))
                .maxNumBatchedTokens(setting(server, defaults, "max_num_batched_tokens")
                        .asInt(EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS))
                .chunkedPrefill(setting(server, defaults, "chunked_prefill").asBoolean(true))
                .mixedBatches(setting(server, defaults, "mixed_batches").asBoolean(true))
                .gpuMemoryUtilization(
                        setting(server, defaults, "gpu_memory_utilization").asDouble(0.9))
                .schedulerSteps(setting(server, defaults, "scheduler_steps").asInt(1))
                .overlapScheduling(
                        setting(server, defaults, "overlap_scheduling").asBoolean(false))
                // Every prompt is its own, so another request never hits the prefix cache; but an engine that
                // keeps one by default (vLLM V1) takes a preempted request's blocks back from it when it comes back,
                // so under KV pressure it recomputes little of what it had computed.
                .prefixCaching(setting(server, defaults, "prefix_caching").asBoolean(false))
                // The engines queue every request they are sent (vLLM, SGLang and trtllm-bench set no limit): a
                // point of 30,000 requests at once is served, not refused past the simulator's default of 4,096.
                .maxWaiting(Integer.MAX_VALUE)
                // What room a request must find to be admitted: TensorRT-LLM's never evicts what it started.
                .admission(
                        Admission.parse(setting(server, defaults, "admission").asText("chunk")))
                // SGLang's DP attention: each of dp_size groups keeps the KV cache of its own requests, so an MLA
                // latent is not copied on every GPU. dp_size 1 (SGLang's default since 0.4.4) turns it off.
                .attentionDataParallel(
                        setting(server, defaults, "enable_dp_attention").asBoolean(false)
                                ? setting(server, defaults, "dp_size").asInt(1)
                                : 1)
                // How the engine stores an MLA latent: once (k-only, vLLM's and SGLang's) or as K and V both
                // (TensorRT-LLM's first DeepSeek support), twice the bytes.
                .mlaCacheKeyAndValue(
                        mlaCache(setting(server, defaults, "mla_cache").asText("k-only")))
                .noise(0, 0, 0)
                .seed(SEED)
                .build();
        config.kvBlocks(); // the model must fit
        JsonNode load = e.path("load");
        Integer stated = e.hasNonNull("requests") && e.path("requests").canConvertToInt()
                ? e.path("requests").asInt()
                : null;
        LoadModel l;
        int requests;
        if (load.has("rate")) {
            l = new LoadModel.Open(load.path("rate").asDouble(), new ArrivalProcess.Poisson());
            requests = stated != null ? stated : 1000;
        } else if (load.has("concurrency")) {
            int c = load.path("concurrency").asInt();
            l = new LoadModel.Closed(c);
            requests = stated != null ? stated : Math.max(100, 10 * c);
        } else if (load.path("offline").asBoolean(false)) {
            // Every request at once: as many users as requests, each sending one.
            if (stated == null) throw new BadInputException("an offline point needs its request count");
            requests = stated;
            l = new LoadModel.Closed(requests);
        } else {
            throw new BadInputException("load must give rate, concurrency or offline");
        }
        Workload w = new Workload(
                LengthDistribution.parse(text(e, "isl_dist")), LengthDistribution.parse(text(e, "osl_dist")), true);
        // Requests the source's client sent first and left out of its figures (its warm-up), sent here too.
        int warmup = e.path("warmup_requests").asInt(0);
        if (warmup < 0) throw new BadInputException("warmup_requests must be >= 0, got " + warmup);
        MeasurementRequest request =
                new MeasurementRequest(l, w, new RunLength(requests, Double.POSITIVE_INFINITY, warmup, 0), SEED);
        List<Target> targets = new ArrayList<>();
        var metrics = e.path("metrics");
        for (var it = metrics.fields(); it.hasNext(); ) {
            var m = it.next();
            Target t = target(m.getKey(), m.getValue(), config.tensorParallel());
            if (t != null) targets.add(t);
        }
        // The groups of terms the point's prediction takes: its engine's, and a mixture of experts' own.
        List<String> tags = new ArrayList<>();
        if (software != null) tags.add(engineTag(software.name()));
        if (model.isMoe()) tags.add(HardwareTwin.modelTag(model.name()));
        Observation o = new Observation(
                id, text(e.path("source"), "id"), hw.name(), List.copyOf(tags), request, onePerKind(targets));
        return new Entry(o, config, software == null ? null : software.name(), release, client.equals("in-process"));
    }

    /**
     * The first central target (mean, median) of each kind the file gives, and the first tail (p90 and above) of each
     * latency kind: tpot before itl, output tokens/s before the other rates.
     */
    private static List<Target> onePerKind(List<Target> targets) {
        List<Target> out = new ArrayList<>();
        for (ObservedMetric m : ObservedMetric.values()) {
            for (Target t : targets) {
                if (t.metric() == m
                        && out.stream().noneMatch(o -> o.metric().kind() == m.kind() && o.isTail() == t.isTail()))
                    out.add(t);
            }
        }
        return out;
    }

    /** A metric key: {@code ttft_ms}, or a tail's {@code ttft_p99_ms} (the statistic is the value's {@code stat}). */
    private static Target target(String key, JsonNode v, int gpus) {
        String kind = key.replaceFirst("_p\\d+(\\.\\d+)?_ms$", "_ms");
        ObservedMetric metric = switch (kind) {
            case "ttft_ms" -> ObservedMetric.TTFT;
            case "tpot_ms" -> ObservedMetric.TPOT;
            case "itl_ms" -> ObservedMetric.ITL;
            case "e2e_ms" -> ObservedMetric.E2E;
            case "output_tok_s" -> ObservedMetric.OUTPUT_TOKENS_PER_S;
            case "total_tok_s" -> ObservedMetric.TOTAL_TOKENS_PER_S;
            case "request_s" -> ObservedMetric.REQUESTS_PER_S;
            default -> null;
        };
        if (metric == null) return null;
        double value = v.path("value").asDouble();
        if (metric.isRate() && "gpu".equals(v.path("per").asText())) value *= gpus;
        SloStat stat = stat(v.path("stat").asText("mean"));
        if (!kind.equals(key) && !key.startsWith(kind.replace("_ms", "_" + stat.text() + "_"))) {
            throw new IllegalArgumentException(
                    "metric " + key + " says stat " + v.path("stat").asText("mean") + "; name it for its statistic");
        }
        JsonNode w = v.path("window");
        RateWindow window = w.isMissingNode()
                ? null
                : new RateWindow(
                        w.path("first_tokens").asInt(0), w.path("finished").asInt(0));
        return new Target(metric, stat, value, window);
    }

    /** A source's statistic; one it did not name is read as the mean (what benchmark tools print first). */
    private static SloStat stat(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "median", "p50" -> SloStat.P50;
            case "p90" -> SloStat.P90;
            case "p95" -> SloStat.P95;
            case "p99" -> SloStat.P99;
            default -> SloStat.MEAN;
        };
    }

    /** The engine's scheduler settings: {@code engine@MAJOR.MINOR} when the file has them, else {@code engine}. */
    private static JsonNode scheduler(JsonNode engines, String engine, String version) {
        // The first MAJOR.MINOR in the stated version ("~1.0 (PyTorch backend)" is 1.0).
        Matcher v = MAJOR_MINOR.matcher(version);
        if (v.find() && engines.has(engine + "@" + v.group())) return engines.path(engine + "@" + v.group());
        return engines.path(engine);
    }

    /**
     * The engine's defaults on {@code hw}: the first of its {@code tiers} whose conditions the GPU meets
     * ({@code min_memory_gib}, {@code not_hardware: [profile names]}) over the rest, as engines whose batch limits
     * depend on the GPU decide them.
     */
    public static JsonNode onGpu(JsonNode defaults, HardwareProfile hw) {
        if (!defaults.has("tiers")) return defaults;
        var out = ((com.fasterxml.jackson.databind.node.ObjectNode) defaults).deepCopy();
        out.remove("tiers");
        for (JsonNode tier : defaults.path("tiers")) {
            double gib = hw.memoryGb() * 1e9 / Math.pow(2, 30);
            if (gib < tier.path("min_memory_gib").asDouble(0)) continue;
            boolean excluded = false;
            for (JsonNode n : tier.path("not_hardware")) excluded |= n.asText().equals(hw.name());
            if (excluded) continue;
            for (var f : tier.properties()) {
                if (!f.getKey().equals("min_memory_gib") && !f.getKey().equals("not_hardware"))
                    out.set(f.getKey(), f.getValue());
            }
            break;
        }
        return out;
    }

    /** A server setting: the entry's own, else its engine's default (a missing node when neither says). */
    private static JsonNode setting(JsonNode server, JsonNode defaults, String key) {
        return server.has(key) ? server.path(key) : defaults.path(key);
    }

    private static boolean mlaCache(String value) {
        return switch (value) {
            case "k-only" -> false;
            case "k-and-v" -> true;
            default -> throw new BadInputException("mla_cache must be k-only or k-and-v, got " + value);
        };
    }

    private static String unknownIsAuto(String s) {
        return s == null || s.isBlank() || s.equals("unknown") ? "auto" : s;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        if (!v.isValueNode() || v.asText().isBlank()) throw new BadInputException("missing " + field);
        return v.asText();
    }
}
