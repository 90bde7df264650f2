package dev.headroom.model.plan;

/**
 * One month × class × option of a plan.
 *
 * @param replicas      replicas at the month's busiest hour (static: the whole month's fleet)
 * @param meanReplicas  replica-hours ÷ hours of the month (hourly scaling: below the peak)
 * @param gpuHours      GPU-hours billed (point)
 * @param cost          dollars (point, low, high)
 * @param dollarsPerMtokAtCapacity replica-hour price ÷ (capacity × 3,600 × tokens per request ÷ 10⁶): the best case
 * @param dollarsPerMtokAsPlanned  cost ÷ tokens served, input and output together
 * @param dollarsPerMtokOutputOnly cost ÷ output tokens served
 * @param dollarsPerMtokInput      cost × prefill share ÷ input tokens (NaN when the prefill share was not measured)
 * @param dollarsPerMtokOutput     cost × (1 − prefill share) ÷ output tokens (NaN likewise)
 * @param utilization   requests served ÷ what the billed replicas could serve at SLO capacity
 */
public record PlanRow(
        int month,
        String workloadClass,
        String option,
        Range replicas,
        double meanReplicas,
        double gpuHours,
        Range cost,
        double inputTokens,
        double outputTokens,
        double dollarsPerMtokAtCapacity,
        double dollarsPerMtokAsPlanned,
        double dollarsPerMtokOutputOnly,
        double dollarsPerMtokInput,
        double dollarsPerMtokOutput,
        double utilization) {}
