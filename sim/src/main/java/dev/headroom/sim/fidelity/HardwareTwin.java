package dev.headroom.sim.fidelity;

import dev.headroom.model.Measurer;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.Parameter;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.StepCostModel;
import dev.headroom.sim.profile.EngineProfile;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator as a model with free parameters, for fitting the profiles' step terms to published results: the
 * accelerator's terms ({@link #PER_HARDWARE}) are each hardware profile's own, the engine software's
 * ({@link EngineProfile#TERMS}) each engine profile's, and the rest ({@link #GLOBAL}) shared by all. Priors are the
 * profiles' {@code priors} — the values before any fit — so a fit, and above all a cross-validated one, never starts
 * from or leans towards values already fitted to the results it scores.
 */
public final class HardwareTwin implements ParametricServer {
    /** Terms no profile owns: the same on every accelerator and engine. */
    public static final List<StepTerm> GLOBAL = List.of(StepTerm.GEMM_HALF_TOKENS, StepTerm.LAYER_OVERHEAD_US);
    /**
     * Terms of a mixture of experts' own kernels, each MoE model's: their speed depends on the experts' shape, and one
     * pair for every mixture (DeepSeek's experts and Mixtral's are 30× apart in size) did worse held out
     * (docs/benchmarks.md, "MoE terms per model").
     */
    public static final List<StepTerm> PER_MODEL = List.of(StepTerm.MOE_LAYER_OVERHEAD_US, StepTerm.MOE_EFFICIENCY);
    /** Terms of the accelerator and its interconnect. */
    public static final List<StepTerm> PER_HARDWARE =
            List.of(StepTerm.MEMORY_EFFICIENCY, StepTerm.COMPUTE_EFFICIENCY, StepTerm.ALLREDUCE_LATENCY_US);

    private final Map<String, Published.Entry> byId = new LinkedHashMap<>();
    private final List<Parameter> parameters = new ArrayList<>();
    private final List<StepTerm> terms = new ArrayList<>();
    private final List<Double> shipped = new ArrayList<>();

    public HardwareTwin(List<Published.Entry> entries) {
        Map<String, HardwareProfile> hardware = new LinkedHashMap<>();
        Map<String, HardwareProfile> engines = new LinkedHashMap<>();
        Map<String, Boolean> sharded = new LinkedHashMap<>();
        Map<String, Published.Entry> mixtures = new LinkedHashMap<>();
        for (Published.Entry e : entries) {
            if (e.config().model().isMoe())
                mixtures.putIfAbsent(e.config().model().name(), e);
            byId.put(e.observation().id(), e);
            HardwareProfile hw = e.config().hardware();
            hardware.putIfAbsent(hw.name(), hw);
            if (e.engine() != null) engines.putIfAbsent(e.engine(), hw);
            sharded.merge(hw.name(), e.config().tensorParallel() > 1, Boolean::logicalOr);
        }
        HardwareProfile any = hardware.values().iterator().next();
        for (StepTerm t : GLOBAL) add(t, null, any.prior(t), any.term(t));
        // The experts' terms of each mixture of experts some point serves, from the defaults (never from values chosen
        // on these results).
        for (var m : mixtures.entrySet()) {
            for (StepTerm t : PER_MODEL) {
                HardwareProfile hw = m.getValue().config().hardware();
                add(
                        t,
                        modelTag(m.getKey()),
                        hw.prior(t),
                        StepCostModel.moeTerm(hw, m.getValue().config().model(), t));
            }
        }
        for (var h : hardware.entrySet()) {
            for (StepTerm t : PER_HARDWARE) {
                // An all-reduce term only where some point shards the model.
                if (t == StepTerm.ALLREDUCE_LATENCY_US && !sharded.get(h.getKey())) continue;
                add(t, h.getKey(), h.getValue().prior(t), h.getValue().term(t));
            }
        }
        for (var e : engines.entrySet()) {
            for (StepTerm t : EngineProfile.TERMS) {
                // The front end's terms stay at the profiles' values: freed, they did not lower the error held out
                // by source (docs/benchmarks.md), so the stock fit leaves them out.
                if (StepTerm.FRONT_END.contains(t)) continue;
                add(
                        t,
                        Published.engineTag(e.getKey()),
                        Profiles.engine(e.getKey()).prior(t),
                        e.getValue().term(t));
            }
        }
    }

    /** The parameters' values as the profiles ship them (what {@code headroom fidelity} scores), in their order. */
    public double[] shipped() {
        return shipped.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private void add(StepTerm t, String group, double prior, double value) {
        shipped.add(value);
        double[] range = range(t);
        double p = Math.max(range[0], Math.min(range[1], prior));
        parameters.add(new Parameter(t.key(), group, range[0], range[1], p, range[0] > 0));
        terms.add(t);
    }

    /** Where a fit looks for each term: physically plausible, narrower than what a profile may state. */
    static double[] range(StepTerm t) {
        return switch (t) {
            case MEMORY_EFFICIENCY -> new double[] {0.3, 0.95};
            case COMPUTE_EFFICIENCY -> new double[] {0.2, 0.95};
            case STEP_OVERHEAD_MS -> new double[] {0, 10};
            case ALLREDUCE_LATENCY_US -> new double[] {1, 200};
            case GEMM_HALF_TOKENS -> new double[] {1, 2048};
            case SEQ_OVERHEAD_US -> new double[] {0, 100};
            case LAYER_OVERHEAD_US -> new double[] {0, 100};
            case REQUEST_OVERHEAD_MS -> new double[] {0, 100};
            case MOE_LAYER_OVERHEAD_US -> new double[] {0, 1000};
            case MOE_EFFICIENCY -> new double[] {0.1, 1};
            case FRONTEND_REQUEST_MS -> new double[] {0, 50};
            case FRONTEND_TOKEN_US -> new double[] {0, 1000};
        };
    }

    @Override
    public List<Parameter> parameters() {
        return parameters;
    }

    @Override
    public Measurer measurer(double[] values, Observation o) {
        Published.Entry e = byId.get(o.id());
        if (e == null) throw new IllegalArgumentException("not an entry of this twin: " + o.id());
        return new VirtualEngine(e.served(
                profile(e.config().hardware(), e.engine(), e.config().model().name(), values)));
    }

    /**
     * {@code base} with every term {@code values} give it: the globals, its own, {@code engine}'s (or null) and
     * {@code model}'s (a mixture of experts' own).
     */
    public HardwareProfile profile(HardwareProfile base, String engine, String model, double[] values) {
        HardwareProfile hw = base;
        String tag = engine == null ? null : Published.engineTag(engine);
        String modelTag = modelTag(model);
        for (int i = 0; i < parameters.size(); i++) {
            String g = parameters.get(i).group();
            if (g == null || g.equals(base.name()) || g.equals(tag) || g.equals(modelTag))
                hw = hw.with(terms.get(i), values[i]);
        }
        return hw;
    }

    /** The group of a model's own terms. */
    public static String modelTag(String model) {
        return "model:" + model;
    }

    /**
     * The fitted value of {@code t} in {@code group} (a hardware name, an engine tag, a {@link #modelTag}, or null), or
     * NaN.
     */
    public double value(double[] values, StepTerm t, String group) {
        for (int i = 0; i < parameters.size(); i++) {
            if (terms.get(i) == t && java.util.Objects.equals(parameters.get(i).group(), group)) return values[i];
        }
        return Double.NaN;
    }
}
