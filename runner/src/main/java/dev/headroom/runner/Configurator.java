package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Measurement;
import dev.headroom.model.Metrics;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CapacityModel;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.ConfigureReport;
import dev.headroom.model.plan.EngineKnobs;
import dev.headroom.model.plan.Pareto;
import dev.headroom.model.plan.ParetoPoint;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.ServingConfig;
import dev.headroom.optimizer.plan.ModelledCapacities;
import dev.headroom.reports.plan.PlanInputs;
import dev.headroom.sim.SimulatedReplicas;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code headroom configure}'s work: every configuration of a grid (catalog GPUs × tensor-parallel sizes × batch caps
 * × token budgets × KV and weight formats) pruned where it cannot serve the workload at all, the rest searched on the
 * virtual clock for their max rate under the SLO (each the search {@code plan --capacity-model} runs), costed, and
 * every probe placed on the Pareto picture.
 */
public final class Configurator {
    private final Spec spec;

    /**
     * What to search.
     *
     * @param gpus     catalog options, each naming a hardware profile; its price per GPU-hour is used, its GPUs per
     *                 replica are not (the tensor-parallel sizes are searched)
     * @param profiles calibration files, each standing for the catalog hardware it describes
     * @param threads  searches run at once
     * @param tolerance each search stops when its interval is within this fraction of its answer
     * @param maxProbes or after this many probes
     */
    public record Spec(
            String model,
            Workload workload,
            List<Slo> slos,
            List<CatalogOption> gpus,
            List<Integer> tensorParallel,
            List<Integer> maxNumSeqs,
            List<Integer> maxNumBatchedTokens,
            List<String> kvCacheDtypes,
            List<String> weightDtypes,
            List<Path> profiles,
            PricingTier pricing,
            String workloadClass,
            long seed,
            int threads,
            double tolerance,
            int maxProbes) {
        public Spec {
            if (!(tolerance >= 0.01 && tolerance <= 0.5)) {
                throw new BadInputException("{tolerance} must be from 0.01 to 0.5, got " + tolerance);
            }
            if (maxProbes < 3 || maxProbes > 100) {
                throw new BadInputException("{max-probes} must be from 3 to 100, got " + maxProbes);
            }
            if (slos.isEmpty()) throw new BadInputException("configure needs an SLO to search under: give {slo}");
            if (gpus.isEmpty()) throw new BadInputException("{catalog} lists no GPU to configure");
            check(tensorParallel, "tp", 1, 64);
            check(maxNumSeqs, "max-num-seqs", 1, 1 << 20);
            check(maxNumBatchedTokens, "max-num-batched-tokens", 16, 1 << 24);
            if (kvCacheDtypes.isEmpty() || weightDtypes.isEmpty()) {
                throw new BadInputException("{kv-dtype} and {weight-dtype} each need at least one value (auto)");
            }
            if (threads < 1 || threads > 64) throw new BadInputException("{threads} must be in 1..64, got " + threads);
            for (CatalogOption o : gpus) {
                if (o.hardware() == null) {
                    throw new BadInputException("{catalog}: option " + o.name() + " names no hardware profile; "
                            + "configure needs 'hardware: <profile>' (one of " + Profiles.hardwareNames() + ")");
                }
                o.replicaHourPrice(pricing);
            }
            slos = List.copyOf(slos);
            gpus = List.copyOf(gpus);
            tensorParallel = List.copyOf(new LinkedHashSet<>(tensorParallel));
            maxNumSeqs = List.copyOf(new LinkedHashSet<>(maxNumSeqs));
            maxNumBatchedTokens = List.copyOf(new LinkedHashSet<>(maxNumBatchedTokens));
            kvCacheDtypes = List.copyOf(kvCacheDtypes);
            weightDtypes = List.copyOf(weightDtypes);
            profiles = List.copyOf(profiles);
        }

        private static void check(List<Integer> values, String name, int min, int max) {
            if (values.isEmpty()) throw new BadInputException("{" + name + "} needs at least one value");
            for (int v : values) {
                if (v < min || v > max) {
                    throw new BadInputException("{" + name + "} values must be in " + min + ".." + max + ", got " + v);
                }
            }
        }
    }

    /**
     * The GPUs to configure: the catalog file's options, or without one every hardware profile with a list price (an
     * option named after it, on-demand).
     */
    public static List<CatalogOption> catalog(Path file) {
        if (file != null) return PlanInputs.catalog(file, Profiles.listPrices());
        List<CatalogOption> out = new ArrayList<>();
        Profiles.listPrices()
                .forEach((hw, price) ->
                        out.add(new CatalogOption(hw, 1, Map.of(PricingTier.ON_DEMAND, price), hw, null)));
        return out;
    }

    public Configurator(Spec spec) {
        this.spec = spec;
    }

    /** Prunes, searches and costs the grid; {@code progress} hears of each configuration as it finishes. */
    public ConfigureReport run(Consumer<String> progress) {
        ModelProfile model = Profiles.model(spec.model());
        Map<String, SimulatedReplicas.Twin> twins = twins(model);
        List<ServingConfig> grid = grid(model);
        List<ConfigureReport.Pruned> pruned = new ArrayList<>();
        List<ServingConfig> searched = new ArrayList<>();
        for (ServingConfig c : grid) {
            String why = prune(c, model, twins.get(c.hardware()));
            if (why == null) searched.add(c);
            else pruned.add(new ConfigureReport.Pruned(c, why));
        }
        progress.accept("configure: " + grid.size() + " configuration(s), " + pruned.size() + " pruned, "
                + searched.size() + " to search on the virtual clock (" + spec.threads() + " at a time)");
        List<Searched> done = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(spec.threads(), r -> {
            Thread t = new Thread(r, "configure");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Searched>> futures = new ArrayList<>();
            int[] finished = {0};
            for (ServingConfig c : searched) {
                futures.add(pool.submit(() -> {
                    Searched s = search(c, twins.get(c.hardware()));
                    synchronized (finished) {
                        finished[0]++;
                        progress.accept("[" + finished[0] + "/" + searched.size() + "] " + s.describe());
                    }
                    return s;
                }));
            }
            for (Future<Searched> f : futures) done.add(f.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("configure interrupted", e);
        } catch (ExecutionException e) {
            // As the search threw it: bad input stays bad input, running out of memory stays that (exit 6).
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<ParetoPoint> points = new ArrayList<>();
        List<ConfigureReport.Result> results = new ArrayList<>();
        for (Searched s : done) {
            results.add(s.result());
            points.addAll(s.points());
        }
        return new ConfigureReport(
                model.name(),
                describe(spec.workload()),
                spec.workloadClass(),
                spec.slos(),
                spec.pricing(),
                spec.seed(),
                spec.tolerance(),
                spec.maxProbes(),
                grid.size(),
                pruned,
                results,
                Pareto.mark(points));
    }

    /** Each calibration file by the hardware it describes; one that matches no catalog GPU or model is bad input. */
    private Map<String, SimulatedReplicas.Twin> twins(ModelProfile model) {
        Map<String, SimulatedReplicas.Twin> out = new LinkedHashMap<>();
        Set<String> hardware = new LinkedHashSet<>();
        spec.gpus().forEach(o -> hardware.add(o.hardware()));
        for (Path p : spec.profiles()) {
            if (!Files.isRegularFile(p)) {
                throw new BadInputException("{profile} " + p + ": no such file; give a calibration.yaml written by "
                        + "headroom calibrate");
            }
            SimulatedReplicas.Twin twin = SimulatedReplicas.Twin.read(p);
            EngineConfig e = twin.engine();
            String hw = e.hardware().name();
            if (!hardware.contains(hw)) {
                throw new BadInputException("{profile} " + p + " describes hardware " + hw + ", which no GPU of "
                        + "{catalog} has (they are " + hardware + ")");
            }
            if (!e.model().name().equals(model.name())) {
                throw new BadInputException(
                        "{profile} " + p + " is a twin of " + e.model().name() + ", not of " + model.name()
                                + "; give {sim-model} " + e.model().name() + " or another calibration");
            }
            if (out.put(hw, twin) != null) throw new BadInputException("{profile}: two calibrations of " + hw);
        }
        return out;
    }

    /** Every combination, formats resolved ({@code auto} → the model's own) and duplicates dropped. */
    private List<ServingConfig> grid(ModelProfile model) {
        Set<String> kv = new LinkedHashSet<>(), w = new LinkedHashSet<>();
        Precision kvOwn = Precision.ofBytes(model.kvBytesPerElement()),
                wOwn = Precision.ofBytes(model.bytesPerWeight());
        for (String s : spec.kvCacheDtypes())
            kv.add(Precision.parseKvCache(s, kvOwn, "--kv-dtype").wireName());
        for (String s : spec.weightDtypes())
            w.add(Precision.parseWeights(s, wOwn, "--weight-dtype").wireName());
        Set<ServingConfig> out = new LinkedHashSet<>();
        for (CatalogOption g : spec.gpus())
            for (int tp : spec.tensorParallel())
                for (int seqs : spec.maxNumSeqs())
                    for (int budget : spec.maxNumBatchedTokens())
                        for (String k : kv)
                            for (String x : w)
                                out.add(new ServingConfig(
                                        g.name(), g.hardware(), tp, new EngineKnobs(seqs, budget, k, x)));
        return List.copyOf(out);
    }

    /** Why {@code c} cannot serve the workload at all, or null. */
    private String prune(ServingConfig c, ModelProfile model, SimulatedReplicas.Twin twin) {
        int tp = c.tensorParallel();
        if (model.attentionHeads() % tp != 0) {
            return "TP " + tp + " does not divide " + model.name() + "'s " + model.attentionHeads()
                    + " attention heads";
        }
        EngineConfig e = SimulatedReplicas.configuredEngine(option(c), twin, spec.seed());
        double usable = e.hardware().memoryGb() * e.gpuMemoryUtilization() - e.activationReserveGb();
        double weights = e.model().weightBytes() / tp / 1e9;
        int blocks;
        try {
            blocks = e.kvBlocks();
        } catch (BadInputException x) {
            return String.format(
                    Locale.ROOT,
                    "weights need %.1f GB per GPU at TP %d, %.1f GB of %s usable",
                    weights,
                    tp,
                    usable,
                    e.hardware().name());
        }
        long need = Math.round(Math.ceil(spec.workload().inputTokens().mean() + outputMean(spec.workload())));
        if (need > e.requestContext()) {
            return "a request of " + need + " tokens exceeds " + model.name() + "'s context of " + e.requestContext();
        }
        long kvTokens = (long) blocks * e.blockSize();
        if (kvTokens < need) {
            return String.format(
                    Locale.ROOT,
                    "the KV cache holds %d tokens beside %.1f GB of weights per GPU; one request needs %d",
                    kvTokens,
                    weights,
                    need);
        }
        return null;
    }

    private CatalogOption option(ServingConfig c) {
        CatalogOption base = spec.gpus().stream()
                .filter(o -> o.name().equals(c.gpu()))
                .findFirst()
                .orElseThrow();
        return c.option(base, spec.model());
    }

    /** One configuration's search, reduced to its result and its probes' points (the records dropped). */
    private Searched search(ServingConfig c, SimulatedReplicas.Twin twin) {
        CatalogOption o = option(c);
        CapacityModel model = SimulatedReplicas.configured(o, twin, spec.seed());
        ModelledCapacities.Search s = ModelledCapacities.search(
                spec.workload(),
                null,
                spec.slos(),
                model,
                spec.workloadClass(),
                spec.seed(),
                spec.tolerance(),
                spec.maxProbes());
        double hourly = o.replicaHourPrice(spec.pricing());
        int gpus = c.tensorParallel();
        Map<Double, Summary> summaries = new LinkedHashMap<>();
        List<ParetoPoint> points = new ArrayList<>();
        for (Map.Entry<Double, Measurement> m : s.byLoad().entrySet()) {
            Summary sum = Metrics.summarize(m.getValue().records(), true, spec.slos());
            summaries.put(m.getKey(), sum);
            points.add(
                    ParetoPoint.of(c.name(), String.format(Locale.ROOT, "%.4g req/s", m.getKey()), sum, gpus, hourly));
        }
        Capacity cap = null;
        String why = null;
        try {
            cap = ModelledCapacities.capacity(s, model, spec.workloadClass(), null, c.name(), slosText());
        } catch (BadInputException e) {
            String m = e.getMessage(), prefix = c.name() + ": ";
            why = m.startsWith(prefix) ? m.substring(prefix.length()) : m;
        }
        ConfigureReport.Result r;
        if (cap == null) {
            r = new ConfigureReport.Result(
                    c,
                    model.source(),
                    null,
                    why,
                    s.report().probes().size(),
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN);
        } else {
            Summary at = summaries.get(s.byLoad().floorKey(cap.max()));
            double perRequest = at == null || !(at.requestsPerS() > 0)
                    ? outputMean(spec.workload())
                    : at.outputTokensPerS() / at.requestsPerS();
            r = new ConfigureReport.Result(
                    c,
                    model.source(),
                    cap,
                    null,
                    s.report().probes().size(),
                    perRequest,
                    at == null ? Double.NaN : ParetoPoint.perUser(at),
                    cap.max() * perRequest / gpus,
                    ParetoPoint.dollarsPerOutputMtok(hourly, cap.max() * perRequest),
                    ParetoPoint.dollarsPerOutputMtok(hourly, cap.ciHigh() * perRequest),
                    ParetoPoint.dollarsPerOutputMtok(hourly, cap.ciLow() * perRequest));
        }
        return new Searched(r, points);
    }

    private record Searched(ConfigureReport.Result result, List<ParetoPoint> points) {
        String describe() {
            ConfigureReport.Result r = result;
            if (r.capacity() == null) return r.config().name() + ": no capacity (" + r.why() + ")";
            return String.format(
                    Locale.ROOT,
                    "%s: %.3g req/s, $%.4f/Mtok out, %d probes",
                    r.config().name(),
                    r.capacity().max(),
                    r.dollarsPerOutputMtok(),
                    r.probes());
        }
    }

    private String slosText() {
        return String.join(", ", spec.slos().stream().map(Slo::text).toList());
    }

    private static double outputMean(Workload w) {
        return w.outputTokens() == null ? 256 : w.outputTokens().mean();
    }

    private static String describe(Workload w) {
        return "isl " + w.inputTokens().text() + ", osl "
                + (w.outputTokens() == null ? "server's" : w.outputTokens().text())
                + (w.ignoreEos() ? ", ignore_eos" : "");
    }
}
