package dev.headroom.model.plan;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.Workload;
import java.util.List;

/**
 * Replays arrivals against a number of replicas of one catalog option, in simulated time: what a plan's
 * verification asks, without the optimizer knowing the simulator (as {@link dev.headroom.model.Measurer} for probes).
 */
@FunctionalInterface
public interface FleetSimulator {
    /**
     * Poisson arrivals at {@code ratePerSecond} for {@code seconds} against {@code replicas} replicas behind a
     * least-loaded balancer; requests sent in the first {@code warmupSeconds} are marked warm-up.
     *
     * @throws IllegalArgumentException when the option cannot be simulated (e.g. it names no hardware profile)
     */
    List<RequestRecord> run(
            CatalogOption option,
            int replicas,
            double ratePerSecond,
            Workload workload,
            double seconds,
            double warmupSeconds,
            long seed);
}
