package dev.headroom.sim.fidelity;

import dev.headroom.model.Measurer;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.Parameter;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.StepCostModel;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.StepTerm;
import java.util.ArrayList;
import java.util.List;

/**
 * One server's twin: the simulator's engine as {@code base} configures it (hardware, model, TP, formats, scheduler
 * limits), with every step term free; priors are the base hardware profile's terms (a MoE model's
 * experts' terms: the model's own unless the hardware states them). What {@code headroom calibrate}
 * fits to a server's probes.
 */
public final class EngineTwin implements ParametricServer {
    private final EngineConfig base;
    private final List<Parameter> parameters = new ArrayList<>();
    private final List<StepTerm> terms = new ArrayList<>();

    public EngineTwin(EngineConfig base) {
        this.base = base;
        for (StepTerm t : StepTerm.values()) {
            // A dense model never pays the experts' terms: nothing to fit.
            if (StepTerm.MOE.contains(t) && !base.model().isMoe()) continue;
            // The front end's queue shows only past what one probe's load points separate: held at the profile's.
            if (StepTerm.FRONT_END.contains(t)) continue;
            terms.add(t);
            double[] r = HardwareTwin.range(t);
            // The experts' terms start from the model's own where the hardware leaves them to it.
            double start = StepTerm.MOE.contains(t)
                    ? StepCostModel.moeTerm(base.hardware(), base.model(), t)
                    : base.hardware().term(t);
            double prior = Math.max(r[0], Math.min(r[1], start));
            parameters.add(new Parameter(t.key(), null, r[0], r[1], prior, r[0] > 0));
        }
    }

    public EngineConfig base() {
        return base;
    }

    @Override
    public List<Parameter> parameters() {
        return parameters;
    }

    @Override
    public Measurer measurer(double[] values, Observation o) {
        return new VirtualEngine(config(values));
    }

    /** The engine with the step terms {@code values} give it. */
    public EngineConfig config(double[] values) {
        HardwareProfile hw = base.hardware();
        for (int i = 0; i < terms.size(); i++) hw = hw.with(terms.get(i), values[i]);
        return base.toBuilder().hardware(hw).build();
    }

    @Override
    public String toString() {
        return "max_num_seqs " + base.maxNumSeqs() + ", chunked prefill " + (base.chunkedPrefill() ? "on" : "off");
    }
}
