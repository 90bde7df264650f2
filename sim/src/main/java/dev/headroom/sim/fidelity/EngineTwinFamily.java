package dev.headroom.sim.fidelity;

import dev.headroom.model.fit.TwinFamily;
import dev.headroom.sim.engine.EngineConfig;
import java.util.Arrays;
import java.util.List;

/** The simulator's twins of one server: {@link EngineTwin} in every {@link SchedulerShape}, from one base engine. */
public final class EngineTwinFamily implements TwinFamily {
    private final EngineConfig base;

    /** @param base the server as assumed: hardware and model profiles, TP, formats, context per request */
    public EngineTwinFamily(EngineConfig base) {
        this.base = base;
    }

    @Override
    public List<String> shapes() {
        return Arrays.stream(SchedulerShape.values()).map(SchedulerShape::label).toList();
    }

    @Override
    public EngineTwin twin(int shape, int cap, double[] start) {
        EngineConfig from = start == null ? base : new EngineTwin(base).config(start);
        return new EngineTwin(SchedulerShape.values()[shape].applyTo(
                from.toBuilder().maxNumSeqs(cap).build()));
    }

    /** The shape at {@code index}. */
    public SchedulerShape shape(int index) {
        return SchedulerShape.values()[index];
    }
}
