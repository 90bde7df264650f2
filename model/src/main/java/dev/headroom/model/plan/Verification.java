package dev.headroom.model.plan;

import dev.headroom.model.Summary;
import java.util.List;

/**
 * A plan checked in the simulator: one class's peak-hour rate replayed as Poisson arrivals against the planned
 * replicas of one option behind a least-loaded balancer, against the lean fleet (⌈rps ÷ capacity⌉ replicas: no
 * headroom, no redundancy), and — found by bisection — against the smallest fleet that meets the SLO.
 *
 * <p>The planned count splits as {@code smallest + estimate + headroom + redundancy}: {@link #estimateReplicas()}
 * is what the capacity estimate adds over what the simulated fleet needs (lean − smallest; negative when the estimate
 * was optimistic), {@link #headroomReplicas()} what the utilization target adds (⌈rps ÷ (capacity × target)⌉ − lean),
 * {@link #redundancyReplicas()} the rest (redundancy, and any min_replicas floor).
 *
 * @param month            the month checked (0-based): the one needing the most replicas
 * @param planned          what the planned fleet achieved (SLO results, attainment)
 * @param lean             what the lean fleet achieved
 * @param atTargetReplicas ⌈rps ÷ (capacity × utilization target)⌉
 * @param smallestReplicas the fewest replicas found to meet the SLO; -1 when none did up to {@code searchedUpTo}
 * @param smallest         what that fleet achieved; null when none passed
 * @param trials           every fleet size run, in the order run
 * @param searchedUpTo     the largest fleet size the bisection was allowed to try
 */
public record Verification(
        String workloadClass,
        String option,
        int month,
        double rps,
        int replicas,
        Summary planned,
        int leanReplicas,
        Summary lean,
        int atTargetReplicas,
        int smallestReplicas,
        Summary smallest,
        List<Trial> trials,
        int searchedUpTo,
        double seconds) {
    public Verification {
        trials = List.copyOf(trials);
    }

    /** One fleet size run at the peak hour. */
    public record Trial(int replicas, boolean pass, double sloAttainment) {}

    /** Whether the bisection found a passing fleet. */
    public boolean found() {
        return smallestReplicas > 0;
    }

    /** Replicas the capacity estimate adds over the smallest passing fleet: lean − smallest. */
    public int estimateReplicas() {
        return leanReplicas - smallestReplicas;
    }

    /** Replicas the utilization target adds: ⌈rps ÷ (capacity × target)⌉ − lean. */
    public int headroomReplicas() {
        return atTargetReplicas - leanReplicas;
    }

    /** Replicas redundancy (and a min_replicas floor) adds: planned − ⌈rps ÷ (capacity × target)⌉. */
    public int redundancyReplicas() {
        return replicas - atTargetReplicas;
    }
}
