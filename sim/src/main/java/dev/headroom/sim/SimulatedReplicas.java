package dev.headroom.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.plan.CapacityModel;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.EngineKnobs;
import dev.headroom.sim.engine.Disaggregation;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.fidelity.Calibration;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A catalog option's replica on the simulator: its stock engine (the option's hardware profile, its model, TP = GPUs
 * per replica) or a calibrated twin ({@code calibration.yaml}), as the engine a plan's fleet runs and as a
 * {@link CapacityModel} with the model's cross-validated error.
 */
public final class SimulatedReplicas {
    /** The stock model's error against published results ({@code configs/stock-error.yaml}). */
    static final String STOCK_ERROR = "/configs/stock-error.yaml";

    private SimulatedReplicas() {}

    /**
     * The option's stock engine, as {@code --virtual} runs it by default (its step noise, seeded); the model defaults
     * to Llama-3.1-8B. A P/D option ({@code prefill_decode: P:D}) runs its GPUs as P + D engines of equal TP.
     */
    public static EngineConfig stock(CatalogOption option, String input, long seed) {
        if (option.hardware() == null) {
            throw new BadInputException(input + ": option " + option.name() + " names no simulator hardware profile; "
                    + "add 'hardware: <profile>' (one of " + Profiles.hardwareNames() + ") to it in the catalog");
        }
        Disaggregation pd = option.prefillDecode() == null
                ? null
                : Disaggregation.parse(option.prefillDecode(), Disaggregation.DEFAULT_LINK_GB_S);
        int engines = pd == null ? 1 : pd.prefill() + pd.decode();
        if (option.gpusPerReplica() % engines != 0) {
            throw new BadInputException(input + ": option " + option.name() + " has gpus_per_replica "
                    + option.gpusPerReplica() + ", which prefill_decode " + pd.text() + " cannot split over its "
                    + engines + " engines; give a multiple of " + engines);
        }
        var hw = Profiles.hardware(option.hardware());
        var b =
                EngineConfig.defaults(hw, Profiles.model(option.model() == null ? "llama-3.1-8b" : option.model()))
                        .toBuilder()
                        .tensorParallel(option.gpusPerReplica() / engines)
                        .disaggregation(pd)
                        .seed(seed);
        return knobs(b, option).build();
    }

    /** The option's engine settings ({@code max_num_seqs}, formats...) on an engine being built. */
    private static EngineConfig.Builder knobs(EngineConfig.Builder b, CatalogOption option) {
        EngineKnobs k = option.engine();
        String where = "option " + option.name() + ": ";
        if (k.maxNumSeqs() > 0) b.maxNumSeqs(k.maxNumSeqs());
        if (k.maxNumBatchedTokens() > 0) b.maxNumBatchedTokens(k.maxNumBatchedTokens());
        if (k.kvCacheDtype() != null)
            b.kvCache(Precision.parseKvCache(k.kvCacheDtype(), null, where + "kv_cache_dtype"));
        if (k.weightDtype() != null) b.weights(Precision.parseWeights(k.weightDtype(), null, where + "weight_dtype"));
        return b;
    }

    /**
     * A calibration file read once, for {@code headroom configure} to try at many settings.
     *
     * @param engine the twin as calibrated
     * @param error  its cross-validated error by kind
     */
    public record Twin(Path file, EngineConfig engine, Map<ObservedMetric.Kind, Double> error) {
        /** Reads {@code file}; a calibration without a cross-validated throughput error is bad input. */
        public static Twin read(Path file) {
            Map<ObservedMetric.Kind, Double> error = Calibration.crossValidatedError(file);
            if (!error.containsKey(ObservedMetric.Kind.THROUGHPUT)) {
                throw new BadInputException("{profile} " + file + ": the calibration states no cross-validated error "
                        + "to widen a capacity by; run headroom calibrate with --folds 2 or more");
            }
            return new Twin(file, Calibration.read(file), Map.copyOf(error));
        }
    }

    /**
     * The engine {@code headroom configure} tries for a configuration: the option's stock engine, or where
     * {@code twin} is a calibration of the option's hardware, that twin with the option's TP and engine settings (its
     * fitted step terms).
     */
    public static EngineConfig configuredEngine(CatalogOption option, Twin twin, long seed) {
        if (twin == null) return stock(option, "{catalog}", seed);
        var b = twin.engine().toBuilder()
                .tensorParallel(option.gpusPerReplica())
                .noise(
                        EngineConfig.DEFAULT_NOISE,
                        EngineConfig.DEFAULT_STALL_PROBABILITY,
                        EngineConfig.DEFAULT_STALL_MS)
                .seed(seed);
        return knobs(b, option).build();
    }

    /**
     * {@link #configuredEngine} as a capacity model: the stock profile's error, or the twin's cross-validated one (the
     * source says when the twin was calibrated at another TP).
     */
    public static CapacityModel configured(CatalogOption option, Twin twin, long seed) {
        EngineConfig e = configuredEngine(option, twin, seed);
        if (twin == null) return stockModel(option.name(), e);
        int calibrated = twin.engine().tensorParallel();
        String tp = calibrated == e.tensorParallel() ? "" : " (calibrated at TP " + calibrated + ")";
        return new CapacityModel(option.name(), twin.file() + tp, new VirtualEngine(e), twin.error());
    }

    private static CapacityModel stockModel(String option, EngineConfig e) {
        return new CapacityModel(
                option,
                "stock " + e.hardware().name() + " x" + e.tensorParallel() + " "
                        + e.model().name()
                        + (e.disaggregation() == null
                                ? ""
                                : ", prefill:decode " + e.disaggregation().text()),
                new VirtualEngine(e),
                stockError(e.hardware().name()));
    }

    /**
     * The model {@code spec} names for {@code option}: {@code stock}, or the path of a {@code calibration.yaml}
     * (whose TP must be the option's GPUs per replica).
     */
    public static CapacityModel model(CatalogOption option, String spec, long seed) {
        if (spec.equals("stock")) return stockModel(option.name(), stock(option, "{capacity-model}", seed));
        Path file = Path.of(spec);
        EngineConfig e = twin(option, file, seed);
        Map<ObservedMetric.Kind, Double> error = Calibration.crossValidatedError(file);
        if (!error.containsKey(ObservedMetric.Kind.THROUGHPUT)) {
            throw new BadInputException("{capacity-model} " + option.name() + "=" + file + ": the calibration states "
                    + "no cross-validated error to widen a capacity by; run headroom calibrate with --folds 2 or more");
        }
        return new CapacityModel(option.name(), file.toString(), new VirtualEngine(e), error);
    }

    /**
     * The twin a calibration file describes, checked against the option it stands for, with the step noise
     * {@code --virtual --profile} gives it by default, seeded.
     */
    public static EngineConfig twin(CatalogOption option, Path file, long seed) {
        if (option.prefillDecode() != null) {
            throw new BadInputException("{capacity-model} " + option.name() + "=" + file + ": a calibrated twin is one "
                    + "engine; model the P/D option " + option.name() + " with 'stock'");
        }
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("{capacity-model} " + option.name() + "=" + file
                    + ": no such file; give 'stock' or a calibration.yaml written by headroom calibrate");
        }
        EngineConfig e = Calibration.read(file).toBuilder()
                .noise(
                        EngineConfig.DEFAULT_NOISE,
                        EngineConfig.DEFAULT_STALL_PROBABILITY,
                        EngineConfig.DEFAULT_STALL_MS)
                .seed(seed)
                .build();
        if (e.tensorParallel() != option.gpusPerReplica()) {
            throw new BadInputException("{capacity-model} " + option.name() + "=" + file + ": the twin runs on "
                    + e.tensorParallel() + " GPU(s) (TP " + e.tensorParallel() + ") but option " + option.name()
                    + " has gpus_per_replica " + option.gpusPerReplica());
        }
        return e;
    }

    /**
     * {@code configs/stock-error.yaml}'s cross-validated error by kind for a hardware profile: the figure on that
     * hardware where the benchmark scored that kind on it, else the figure over all hardware.
     */
    public static Map<ObservedMetric.Kind, Double> stockError(String hardware) {
        JsonNode root = stockErrorFile();
        Map<ObservedMetric.Kind, Double> out = Calibration.errorByKind(root.path("error_cross_validated"));
        out.putAll(Calibration.errorByKind(root.path("by_hardware").path(hardware)));
        return out;
    }

    /** The hardware profiles {@code configs/stock-error.yaml} states an error of their own for. */
    public static Set<String> stockErrorHardware() {
        Set<String> names = new TreeSet<>();
        stockErrorFile().path("by_hardware").fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode stockErrorFile() {
        try (InputStream in = SimulatedReplicas.class.getResourceAsStream(STOCK_ERROR)) {
            return new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
