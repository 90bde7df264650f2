package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/**
 * How a plan turns capacity into replicas.
 *
 * @param utilizationTarget share of SLO capacity a replica is planned to carry (headroom for bursts)
 * @param redundancy        replicas added to any non-zero need (N + redundancy)
 * @param hourly            true: each hour has the replicas it needs (autoscaling); false (static): each month is
 *                          sized for its peak hour
 * @param minReplicas       never fewer replicas than this, even at zero traffic
 * @param pricing           the tier prices are taken from
 * @param hoursPerMonth     hours billed per month (730 = 8,760 ÷ 12)
 */
public record Policy(
        double utilizationTarget,
        int redundancy,
        boolean hourly,
        int minReplicas,
        PricingTier pricing,
        double hoursPerMonth) {
    public static final Policy DEFAULT = new Policy(0.8, 1, false, 0, PricingTier.ON_DEMAND, 730);

    public Policy {
        if (!(utilizationTarget > 0 && utilizationTarget <= 1)) {
            throw new BadInputException("utilization_target must be in (0, 1], got " + utilizationTarget);
        }
        if (redundancy < 0) throw new BadInputException("redundancy must be >= 0, got " + redundancy);
        if (minReplicas < 0) throw new BadInputException("min_replicas must be >= 0, got " + minReplicas);
        if (!(hoursPerMonth > 0)) throw new BadInputException("hours_per_month must be > 0, got " + hoursPerMonth);
    }
}
