package dev.headroom.optimizer.plan;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Slo;
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

/**
 * A plan checked by replay ({@code --verify}): each class's busiest hour, in the month that needs the most replicas,
 * as Poisson arrivals against the planned replicas, and against the lean fleet — the fewest replicas the capacity
 * says carry that hour, without the policy's headroom and redundancy. Meaningful when the capacities were measured
 * on the same simulator.
 */
public final class PlanVerification {
    private PlanVerification() {}

    public static List<Verification> verify(Plan plan, double seconds, long seed, FleetSimulator fleet) {
        List<Verification> out = new ArrayList<>();
        for (CatalogOption o : plan.options()) {
            for (WorkloadClass wc : plan.forecast().classes()) {
                List<Slo> slos = slos(wc);
                PlanRow peak = plan.rows().stream()
                        .filter(r ->
                                r.option().equals(o.name()) && r.workloadClass().equals(wc.name()))
                        .max(Comparator.comparingDouble(
                                        (PlanRow r) -> r.replicas().point())
                                .thenComparingInt(PlanRow::month))
                        .orElseThrow();
                double rps = wc.traffic().month(peak.month(), plan.policy().hoursPerMonth()).stream()
                        .mapToDouble(Traffic.Hour::rps)
                        .max()
                        .orElse(0);
                if (rps <= 0) continue;
                Capacity cap = plan.capacities().stream()
                        .filter(c ->
                                c.option().equals(o.name()) && c.workloadClass().equals(wc.name()))
                        .findFirst()
                        .orElseThrow();
                int planned = (int) peak.replicas().point();
                int lean = Math.max(1, (int) Math.ceil(rps / cap.maxRps() - 1e-9));
                Workload w = Workload.fixed((int) Math.round(wc.isl()), (int) Math.round(wc.osl()));
                double warmup = Math.min(60, seconds / 5);
                List<RequestRecord> a = fleet.run(o, planned, rps, w, seconds, warmup, seed);
                List<RequestRecord> b = fleet.run(o, lean, rps, w, seconds, warmup, seed);
                out.add(new Verification(
                        wc.name(),
                        o.name(),
                        peak.month(),
                        rps,
                        planned,
                        Metrics.summarize(a, true, slos),
                        lean,
                        Metrics.summarize(b, true, slos),
                        seconds));
            }
        }
        return out;
    }

    /** The class's SLO text: objectives separated by commas or "and". */
    static List<Slo> slos(WorkloadClass wc) {
        if (wc.slo() == null || wc.slo().isBlank()) {
            throw new BadInputException("{verify}: class " + wc.name() + " has no slo in the forecast to check");
        }
        return Arrays.stream(wc.slo().split(",|\\band\\b"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(Slo::parse)
                .toList();
    }
}
