package dev.headroom.model.plan;

import dev.headroom.model.Summary;

/**
 * A plan checked in the simulator: one class's peak-hour rate replayed as Poisson arrivals against the planned
 * replicas of one option behind a least-loaded balancer, and against the same fleet without its headroom and
 * redundancy (⌈rps ÷ capacity⌉ replicas).
 *
 * @param month   the month checked (0-based): the one needing the most replicas
 * @param planned what the planned fleet achieved (SLO results, attainment)
 * @param lean    what the lean fleet achieved
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
        double seconds) {}
