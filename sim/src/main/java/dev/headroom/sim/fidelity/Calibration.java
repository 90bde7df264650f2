package dev.headroom.sim.fidelity;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.headroom.model.BadInputException;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.OverContext;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code calibration.yaml}, schema {@value #SCHEMA}: a server's twin — the engine (base hardware and model profiles,
 * TP, formats, scheduler limits), its fitted step terms, the probes it was fitted to with the twin's prediction of
 * each, and its error in-sample and cross-validated (each probe predicted by a fit that left it out). Read back, it is
 * an {@link EngineConfig}: {@code --profile calibration.yaml}.
 */
public final class Calibration {
    public static final String SCHEMA = "headroom.calibration/v1";
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    private Calibration() {}

    /**
     * The file's text.
     *
     * @param engine    the twin's engine, fitted terms included
     * @param structure how the scheduler's shape was chosen, in words
     */
    public static String write(
            String toolVersion, String url, String model, EngineConfig engine, String structure, FitReport fit) {
        return write(toolVersion, url, model, engine, structure, fit, Findings.none());
    }

    /**
     * What a calibration found beside the fit.
     *
     * @param server   what the server said about itself before any load
     * @param notes    the phases' decisions: probes substituted, skipped, replaced; terms weakly determined
     * @param warnings a fit forced at a bound, a stated limit the probes contradict
     * @param checks   the twin against the check points measured after the fit
     */
    public record Findings(ServerFacts server, List<String> notes, List<String> warnings, List<Comparison> checks) {
        public static Findings none() {
            return new Findings(null, List.of(), List.of(), List.of());
        }
    }

    /** A check point as calibration.yaml keeps it, to be measured again ({@code calibrate --check-only}). */
    public record CheckSpec(String name, int users, int isl, int osl, int requests, long seed) {}

    /** The file's text, with what the calibration found. */
    public static String write(
            String toolVersion,
            String url,
            String model,
            EngineConfig engine,
            String structure,
            FitReport fit,
            Findings findings) {
        ObjectNode root = YAML.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("tool_version", toolVersion);
        ObjectNode target = root.putObject("target");
        target.put("url", url);
        target.put("model", model);
        ObjectNode e = root.putObject("engine");
        e.put("hardware", engine.hardware().name());
        e.put("model", engine.model().name());
        e.put("tp", engine.tensorParallel());
        e.put("weight_dtype", engine.weights().wireName());
        e.put("kv_cache_dtype", engine.kvCache().wireName());
        e.put("max_num_seqs", engine.maxNumSeqs());
        e.put("max_num_batched_tokens", engine.maxNumBatchedTokens());
        e.put("chunked_prefill", engine.chunkedPrefill());
        e.put("mixed_batches", engine.mixedBatches());
        e.put("scheduler_steps", engine.schedulerSteps());
        e.put("overlap_scheduling", engine.overlapScheduling());
        e.put("gpu_memory_utilization", engine.gpuMemoryUtilization());
        e.put("context_per_request", engine.requestContext());
        e.put("over_context", engine.overContext().wireName());
        root.put("structure", structure);
        // The profiles themselves, so the twin works where the files it was fitted with are not (a profile given as
        // a file, another machine): read back, these win over the names above.
        root.set("hardware_profile", Profiles.tree(engine.hardware()));
        root.set("model_profile", Profiles.tree(engine.model()));
        ObjectNode terms = root.putObject("terms");
        for (StepTerm t : StepTerm.values()) {
            if (StepTerm.MOE.contains(t) && !engine.model().isMoe()) continue;
            terms.put(t.key(), round(engine.hardware().term(t)));
        }
        error(root.putObject("error_in_sample"), fit.fitted());
        if (!fit.heldOut().isEmpty()) error(root.putObject("error_cross_validated"), fit.heldOut());
        if (findings.server() != null) server(root.putObject("server"), findings.server());
        if (!findings.notes().isEmpty()) {
            ArrayNode n = root.putArray("notes");
            findings.notes().forEach(n::add);
        }
        ArrayNode w = root.putArray("warnings");
        findings.warnings().forEach(w::add);
        if (!findings.checks().isEmpty()) {
            error(root.putObject("error_checks"), findings.checks());
            checks(root.putArray("checks"), findings.checks());
        }
        ArrayNode probes = root.putArray("probes");
        Map<String, ObjectNode> byId = new LinkedHashMap<>();
        for (Comparison c : fit.fitted()) {
            ObjectNode p = byId.computeIfAbsent(c.observation().id(), id -> {
                ObjectNode n = probes.addObject();
                n.put("name", id);
                n.put("load", c.observation().request().load().label());
                n.put("isl", c.observation().request().workload().inputTokens().text());
                n.put("osl", c.observation().request().workload().outputTokens().text());
                n.put("requests", c.observation().request().length().requests());
                n.putArray("metrics");
                return n;
            });
            ObjectNode m = ((ArrayNode) p.get("metrics")).addObject();
            m.put("metric", c.target().label());
            m.put("observed", round(c.target().value()));
            m.put("twin", round(c.predicted()));
            m.put("error", round(c.signedError()));
            for (Comparison h : fit.heldOut()) {
                if (h.observation().id().equals(c.observation().id())
                        && h.target().equals(c.target())) {
                    m.put("twin_without_this_probe", round(h.predicted()));
                    m.put("error_without_this_probe", round(h.signedError()));
                }
            }
        }
        try {
            return YAML.writeValueAsString(root);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static void server(ObjectNode o, ServerFacts facts) {
        o.put("kind", facts.kind().wireName());
        if (facts.version() != null) o.put("version", facts.version());
        ArrayNode stated = o.putArray("stated");
        for (ServerFacts.Fact f : facts.facts()) {
            stated.addObject()
                    .put("key", f.key().wireName())
                    .put("value", f.value())
                    .put("source", f.source());
        }
    }

    /** The check points, each with its load and lengths (to be measured again) and the twin against it. */
    public static void checks(ArrayNode out, List<Comparison> checks) {
        Map<String, ObjectNode> byId = new LinkedHashMap<>();
        for (Comparison c : checks) {
            ObjectNode p = byId.computeIfAbsent(c.observation().id(), id -> {
                var r = c.observation().request();
                ObjectNode n = out.addObject();
                n.put("name", id);
                n.put("users", r.load() instanceof dev.headroom.model.LoadModel.Closed cl ? cl.concurrency() : 1);
                n.put("isl", (int) Math.round(r.workload().inputTokens().mean()));
                n.put("osl", (int) Math.round(r.workload().outputTokens().mean()));
                n.put("requests", r.length().requests());
                n.put("seed", r.seed());
                n.putArray("metrics");
                return n;
            });
            ((ArrayNode) p.get("metrics"))
                    .addObject()
                    .put("metric", c.target().label())
                    .put("observed", round(c.target().value()))
                    .put("twin", round(c.predicted()))
                    .put("error", round(c.signedError()));
        }
    }

    /**
     * The report of {@code calibrate --check-only}, schema {@value #CHECK_SCHEMA}: the calibration's check points
     * measured again, and its twin against them.
     */
    public static String checkReport(String toolVersion, String url, String calibration, List<Comparison> checks) {
        ObjectNode root = YAML.createObjectNode();
        root.put("schema", CHECK_SCHEMA);
        root.put("tool_version", toolVersion);
        root.put("url", url);
        root.put("calibration", calibration);
        error(root.putObject("error_checks"), checks);
        checks(root.putArray("checks"), checks);
        try {
            return YAML.writeValueAsString(root);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    public static final String CHECK_SCHEMA = "headroom.calibration-check/v1";

    /** The check points {@code file} keeps (empty for a calibration made without them). */
    public static List<CheckSpec> checkSpecs(Path file) {
        List<CheckSpec> out = new java.util.ArrayList<>();
        for (JsonNode c : tree(file).path("checks")) {
            out.add(new CheckSpec(
                    c.path("name").asText(),
                    c.path("users").asInt(),
                    c.path("isl").asInt(),
                    c.path("osl").asInt(),
                    c.path("requests").asInt(),
                    c.path("seed").asLong()));
        }
        return out;
    }

    /** The model the calibrated server served, as {@code file} records it (null when it does not). */
    public static String targetModel(Path file) {
        JsonNode m = tree(file).path("target").path("model");
        return m.isTextual() ? m.asText() : null;
    }

    /** What the calibrated server stated about itself, by key's wire name → value (empty when nothing). */
    public static Map<String, Long> statedFacts(Path file) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (JsonNode f : tree(file).path("server").path("stated")) {
            out.putIfAbsent(f.path("key").asText(), f.path("value").asLong());
        }
        return out;
    }

    private static JsonNode tree(Path file) {
        return tree(file, "");
    }

    /** The file's tree, its schema checked; {@code as} names the option it was given as ("--profile "), or nothing. */
    private static JsonNode tree(Path file, String as) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readAllBytes(file));
        } catch (JacksonException ex) {
            throw new BadInputException(file + ": not valid YAML: " + ex.getOriginalMessage());
        } catch (IOException ex) {
            throw new BadInputException("cannot read " + as + file + ": " + ex.getMessage());
        }
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            throw new BadInputException(
                    as + file + ": expected schema: " + SCHEMA + " (a calibration.yaml written by headroom calibrate)");
        }
        return root;
    }

    /** The twin's engine as the file describes it, noise-free (add noise with the simulator's own options). */
    public static EngineConfig read(Path file) {
        JsonNode root = tree(file, "--profile ");
        JsonNode e = root.path("engine");
        HardwareProfile hw = root.has("hardware_profile")
                ? Profiles.fromTree(root.get("hardware_profile"), HardwareProfile.class, file + " hardware_profile")
                        .validate()
                : Profiles.hardware(need(e, "hardware", file));
        for (StepTerm t : StepTerm.values()) {
            JsonNode v = root.path("terms").path(t.key());
            // A twin of a dense model may leave out the experts' terms (it never pays them).
            if (!v.isNumber() && StepTerm.MOE.contains(t) && !root.path("terms").has(t.key())) continue;
            // A twin written before the front end's terms existed: the hardware profile's.
            if (!v.isNumber()
                    && StepTerm.FRONT_END.contains(t)
                    && !root.path("terms").has(t.key())) continue;
            if (!v.isNumber()) throw new BadInputException(file + ": terms." + t.key() + " is missing");
            hw = hw.with(t, v.asDouble());
        }
        hw.validate();
        ModelProfile m = root.has("model_profile")
                ? Profiles.fromTree(root.get("model_profile"), ModelProfile.class, file + " model_profile")
                        .validate()
                : Profiles.model(need(e, "model", file));
        return EngineConfig.defaults(hw, m).toBuilder()
                .tensorParallel(e.path("tp").asInt(1))
                .weights(Precision.parseWeights(e.path("weight_dtype").asText("auto"), null, "weight_dtype"))
                .kvCache(Precision.parseKvCache(e.path("kv_cache_dtype").asText("auto"), null, "kv_cache_dtype"))
                .maxNumSeqs(e.path("max_num_seqs").asInt(EngineConfig.DEFAULT_MAX_NUM_SEQS))
                .maxNumBatchedTokens(
                        e.path("max_num_batched_tokens").asInt(EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS))
                .chunkedPrefill(e.path("chunked_prefill").asBoolean(true))
                .mixedBatches(e.path("mixed_batches").asBoolean(true))
                .schedulerSteps(e.path("scheduler_steps").asInt(1))
                .overlapScheduling(e.path("overlap_scheduling").asBoolean(false))
                .gpuMemoryUtilization(e.path("gpu_memory_utilization").asDouble(0.9))
                .contextPerRequest(e.path("context_per_request").asInt(0))
                .overContext(OverContext.parse(e.path("over_context").asText("refuse")))
                .noise(0, 0, 0)
                .build();
    }

    /** The cross-validated median absolute error by kind a calibration file states (empty when it has none). */
    public static Map<ObservedMetric.Kind, Double> crossValidatedError(Path file) {
        try {
            return errorByKind(YAML.readTree(Files.readAllBytes(file)).path("error_cross_validated"));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** An error block as calibration.yaml and configs/stock-error.yaml write it: a fraction per kind's label. */
    public static Map<ObservedMetric.Kind, Double> errorByKind(JsonNode block) {
        Map<ObservedMetric.Kind, Double> out = new LinkedHashMap<>();
        for (ObservedMetric.Kind k : ObservedMetric.Kind.values()) {
            if (block.path(k.label()).isNumber())
                out.put(k, block.path(k.label()).asDouble());
        }
        return out;
    }

    private static void error(ObjectNode o, List<Comparison> cs) {
        for (var e : FitReport.medianErrorByKind(cs).entrySet()) {
            if (!Double.isNaN(e.getValue())) o.put(e.getKey().label(), round(e.getValue()));
        }
    }

    private static String need(JsonNode n, String key, Path file) {
        if (!n.path(key).isTextual()) throw new BadInputException(file + ": engine." + key + " is missing");
        return n.path(key).asText();
    }

    private static double round(double v) {
        if (!Double.isFinite(v)) return v;
        return Double.parseDouble(String.format(Locale.ROOT, "%.4g", v));
    }
}
