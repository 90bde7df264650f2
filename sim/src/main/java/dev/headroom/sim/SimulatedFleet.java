package dev.headroom.sim;

import dev.headroom.model.BadInputException;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Workload;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.FleetSimulator;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.util.List;

/** The plan's replicas on the simulator's virtual clock: the option's hardware profile, its model (Llama-3.1-8B). */
public final class SimulatedFleet implements FleetSimulator {
    @Override
    public List<RequestRecord> run(
            CatalogOption option,
            int replicas,
            double ratePerSecond,
            Workload workload,
            double seconds,
            double warmupSeconds,
            long seed) {
        if (option.hardware() == null) {
            throw new BadInputException("{verify}: option " + option.name() + " names no simulator hardware profile; "
                    + "add 'hardware: <profile>' (one of " + Profiles.hardwareNames() + ") to it in the catalog");
        }
        EngineConfig engine = EngineConfig.defaults(
                        Profiles.hardware(option.hardware()),
                        Profiles.model(option.model() == null ? "llama-3.1-8b" : option.model()))
                .withTensorParallel(option.gpusPerReplica());
        return new VirtualFleet(engine, replicas).run(ratePerSecond, workload, seconds, warmupSeconds, seed);
    }
}
