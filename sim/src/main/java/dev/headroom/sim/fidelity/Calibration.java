package dev.headroom.sim.fidelity;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.headroom.model.BadInputException;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.HardwareProfile;
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
        root.put("structure", structure);
        ObjectNode terms = root.putObject("terms");
        for (StepTerm t : StepTerm.values())
            terms.put(t.key(), round(engine.hardware().term(t)));
        error(root.putObject("error_in_sample"), fit.fitted());
        if (!fit.heldOut().isEmpty()) error(root.putObject("error_cross_validated"), fit.heldOut());
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

    /** The twin's engine as the file describes it, noise-free (add noise with the simulator's own options). */
    public static EngineConfig read(Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readAllBytes(file));
        } catch (JacksonException ex) {
            throw new BadInputException(file + ": not valid YAML: " + ex.getOriginalMessage());
        } catch (IOException ex) {
            throw new BadInputException("cannot read --profile " + file + ": " + ex.getMessage());
        }
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            throw new BadInputException("--profile " + file + ": expected schema: " + SCHEMA
                    + " (a calibration.yaml written by headroom calibrate)");
        }
        JsonNode e = root.path("engine");
        HardwareProfile hw = Profiles.hardware(need(e, "hardware", file));
        for (StepTerm t : StepTerm.values()) {
            JsonNode v = root.path("terms").path(t.key());
            if (!v.isNumber()) throw new BadInputException(file + ": terms." + t.key() + " is missing");
            hw = hw.with(t, v.asDouble());
        }
        hw.validate();
        var m = Profiles.model(need(e, "model", file));
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
