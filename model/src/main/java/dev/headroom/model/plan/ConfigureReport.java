package dev.headroom.model.plan;

import dev.headroom.model.Slo;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What {@code headroom configure} found: every configuration of the grid, pruned (with why) or searched on the
 * virtual clock for its max rate under the SLO, the cost of each at that rate, and the Pareto points of every probe.
 *
 * @param model          the simulator's model profile served
 * @param workload       the requests' lengths, in one line
 * @param workloadClass  the class name the capacities are written under (for {@code plan --capacity})
 * @param pricing        the tier prices are taken at
 * @param tolerance      each search stopped when its interval was within this fraction of its answer
 * @param maxProbes      or after this many probes
 * @param configurations the grid's size: pruned + searched
 * @param points         every probe of every search, marked on or off the fronts
 */
public record ConfigureReport(
        String model,
        String workload,
        String workloadClass,
        List<Slo> slos,
        PricingTier pricing,
        long seed,
        double tolerance,
        int maxProbes,
        int configurations,
        List<Pruned> pruned,
        List<Result> results,
        List<ParetoPoint> points) {
    public ConfigureReport {
        slos = List.copyOf(slos);
        pruned = List.copyOf(pruned);
        results = List.copyOf(results);
        points = List.copyOf(points);
    }

    /** A configuration not searched: it cannot serve the workload at all (memory, heads, context). */
    public record Pruned(ServingConfig config, String reason) {}

    /**
     * A configuration searched.
     *
     * @param modelSource             what modelled it ({@code stock h100-sxm x2 ...} or a calibration file)
     * @param capacity                its max rate under the SLO with the interval widened by the model's error; null
     *                                when no load from the search's lowest met it
     * @param why                     null with a capacity; else why there is none
     * @param probes                  load points the search ran
     * @param outputTokensPerRequest  output tokens a finished request carried, at the capacity
     * @param tokensPerSecondPerUser  1000 ÷ TPOT p50 at the highest probe at or below the capacity
     * @param tokensPerSecondPerGpu   output tokens per second per GPU at the capacity
     * @param dollarsPerOutputMtok    the replica's hourly price ÷ its output tokens per hour at the capacity × 10⁶
     * @param dollarsPerOutputMtokLow the same at the capacity interval's high end
     * @param dollarsPerOutputMtokHigh the same at its low end
     */
    public record Result(
            ServingConfig config,
            String modelSource,
            Capacity capacity,
            String why,
            int probes,
            double outputTokensPerRequest,
            double tokensPerSecondPerUser,
            double tokensPerSecondPerGpu,
            double dollarsPerOutputMtok,
            double dollarsPerOutputMtokLow,
            double dollarsPerOutputMtokHigh) {
        /** Whether some load met the SLO. */
        public boolean feasible() {
            return capacity != null && Double.isFinite(dollarsPerOutputMtok);
        }
    }

    /** The feasible results, cheapest per Mtok first. */
    public List<Result> ranked() {
        return results.stream()
                .filter(Result::feasible)
                .sorted(Comparator.comparingDouble(Result::dollarsPerOutputMtok))
                .toList();
    }

    /** The cheapest feasible configuration of each GPU, in the catalog's order of first appearance. */
    public Map<String, Result> cheapestPerGpu() {
        Map<String, Result> out = new LinkedHashMap<>();
        for (Result r : results) out.putIfAbsent(r.config().gpu(), null);
        for (Result r : ranked())
            if (out.get(r.config().gpu()) == null) out.put(r.config().gpu(), r);
        out.values().removeIf(v -> v == null);
        return out;
    }

    /** The feasible configurations whose capacity point is on the tokens/s-per-user vs per-GPU front. */
    public List<Result> front() {
        List<Result> ranked = ranked();
        List<ParetoPoint> at = Pareto.mark(ranked.stream()
                .map(r -> new ParetoPoint(
                        r.config().name(),
                        "",
                        r.tokensPerSecondPerUser(),
                        r.tokensPerSecondPerGpu(),
                        r.dollarsPerOutputMtok(),
                        true,
                        false,
                        false))
                .toList());
        return IntStream.range(0, ranked.size())
                .filter(i -> at.get(i).onFront())
                .mapToObj(ranked::get)
                .toList();
    }
}
