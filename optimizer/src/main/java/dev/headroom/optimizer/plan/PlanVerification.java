package dev.headroom.optimizer.plan;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.FleetSimulator;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.Verification;
import dev.headroom.model.plan.WorkloadClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * A plan checked by replay ({@code --verify}): each class's busiest hour, in the month that needs the most replicas,
 * as Poisson arrivals against the planned replicas, against the lean fleet — the fewest replicas the capacity says
 * carry that hour, without the policy's headroom and redundancy — and, by bisection over fleet sizes, against the
 * smallest fleet that meets the SLO (the same arrivals for every size). Meaningful when the capacities were measured
 * on the same simulator, or modelled on the twin the fleet runs.
 */
public final class PlanVerification {
    /** The bisection looks for a passing fleet up to this many times the planned one. */
    public static final int SEARCH_FACTOR = 4;

    private PlanVerification() {}

    public static List<Verification> verify(Plan plan, double seconds, long seed, FleetSimulator fleet) {
        for (WorkloadClass wc : plan.forecast().classes()) {
            if (wc.unit().sessions()) {
                throw new BadInputException(
                        "{verify} replays independent requests on the virtual clock, which does not "
                                + "run sessions yet; class " + wc.name() + " is in "
                                + wc.unit().wireName()
                                + ": plan it without {verify}");
            }
        }
        List<Verification> out = new ArrayList<>();
        for (CatalogOption o : plan.options()) {
            for (WorkloadClass wc : plan.forecast().classes()) {
                List<Slo> slos = slos(wc, "{verify}");
                PlanRow peak = plan.rows().stream()
                        .filter(r ->
                                r.option().equals(o.name()) && r.workloadClass().equals(wc.name()))
                        .max(Comparator.comparingDouble(
                                        (PlanRow r) -> r.replicas().point())
                                .thenComparingInt(PlanRow::month))
                        .orElseThrow();
                double rps = wc.traffic().month(peak.month(), plan.policy().hoursPerMonth()).stream()
                        .mapToDouble(Traffic.Hour::load)
                        .max()
                        .orElse(0);
                if (rps <= 0) continue;
                Capacity cap = plan.capacities().stream()
                        .filter(c ->
                                c.option().equals(o.name()) && c.workloadClass().equals(wc.name()))
                        .findFirst()
                        .orElseThrow();
                int planned = (int) peak.replicas().point();
                int lean = Math.max(1, (int) Math.ceil(rps / cap.max() - 1e-9));
                int atTarget = (int) Math.ceil(rps / (cap.max() * plan.policy().utilizationTarget()) - 1e-9);
                Workload w = Workload.fixed((int) Math.round(wc.isl()), (int) Math.round(wc.osl()));
                double warmup = Math.min(60, seconds / 5);
                Map<Integer, Summary> runs = new TreeMap<>();
                List<Verification.Trial> trials = new ArrayList<>();
                IntFunction<Summary> at = n -> runs.computeIfAbsent(n, k -> {
                    List<RequestRecord> r = fleet.run(o, k, rps, w, seconds, warmup, seed);
                    Summary s = Metrics.summarize(r, true, slos);
                    trials.add(new Verification.Trial(k, s.sloPass(), s.sloAttainment()));
                    return s;
                });
                Summary plannedRun = at.apply(planned), leanRun = at.apply(lean);
                int limit = Math.max(planned, lean) * SEARCH_FACTOR;
                int smallest = smallestPassing(n -> at.apply(n).sloPass(), planned, lean, limit);
                out.add(new Verification(
                        wc.name(),
                        o.name(),
                        peak.month(),
                        rps,
                        planned,
                        plannedRun,
                        lean,
                        leanRun,
                        atTarget,
                        smallest,
                        smallest > 0 ? at.apply(smallest) : null,
                        trials,
                        limit,
                        seconds));
            }
        }
        return out;
    }

    /**
     * The fewest replicas in [1, limit] that pass, assuming more replicas never do worse: bisection between the
     * largest size known to fail and the smallest known to pass, after doubling up from the known sizes when neither
     * passes. -1 when even {@code limit} fails.
     */
    static int smallestPassing(IntPredicate passes, int planned, int lean, int limit) {
        int lo = 0, hi = -1; // lo fails (0 replicas serve nothing), hi passes
        for (int n : new int[] {Math.min(planned, lean), Math.max(planned, lean)}) {
            if (passes.test(n)) {
                hi = n;
                break;
            }
            lo = n;
        }
        while (hi < 0) {
            if (lo >= limit) return -1;
            int n = Math.min(limit, lo * 2);
            if (passes.test(n)) hi = n;
            else lo = n;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (passes.test(mid)) hi = mid;
            else lo = mid;
        }
        return hi;
    }

    /** The class's SLO text: objectives separated by commas or "and"; {@code input} names what needs it. */
    static List<Slo> slos(WorkloadClass wc, String input) {
        if (wc.slo() == null || wc.slo().isBlank()) {
            throw new BadInputException(input + ": class " + wc.name() + " has no slo in the forecast to check");
        }
        return Arrays.stream(wc.slo().split(",|\\band\\b"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(Slo::parse)
                .toList();
    }
}
