package dev.headroom.sim;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.Workload;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.FleetSimulator;
import dev.headroom.sim.engine.EngineConfig;
import java.util.List;
import java.util.Map;

/**
 * The plan's replicas on the simulator's virtual clock: an option's calibrated twin when it has one, else its stock
 * engine (its hardware profile, its model, Llama-3.1-8B by default).
 */
public final class SimulatedFleet implements FleetSimulator {
    private final Map<String, EngineConfig> twins;

    /** Every option on its stock engine. */
    public SimulatedFleet() {
        this(Map.of());
    }

    /** @param twins by option name, the engine that stands for its replicas */
    public SimulatedFleet(Map<String, EngineConfig> twins) {
        this.twins = Map.copyOf(twins);
    }

    @Override
    public List<RequestRecord> run(
            CatalogOption option,
            int replicas,
            double ratePerSecond,
            Workload workload,
            double seconds,
            double warmupSeconds,
            long seed) {
        EngineConfig engine = twins.containsKey(option.name())
                ? twins.get(option.name())
                : SimulatedReplicas.stock(option, "{verify}", seed);
        return new VirtualFleet(engine, replicas).run(ratePerSecond, workload, seconds, warmupSeconds, seed);
    }
}
