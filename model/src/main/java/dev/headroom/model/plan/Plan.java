package dev.headroom.model.plan;

import java.util.List;

/**
 * A capacity plan: every month × class × option, and per option the totals over the horizon.
 *
 * @param hours per-hour sizing (month, day, hour, class, option, rps, replicas), for {@code --hourly}; point case
 */
public record Plan(
        Policy policy,
        Forecast forecast,
        List<CatalogOption> options,
        List<Capacity> capacities,
        List<PlanRow> rows,
        List<OptionTotal> totals,
        List<HourRow> hours) {

    /**
     * One option over the whole horizon, all classes on dedicated replicas.
     *
     * @param peakReplicas the most replicas (all classes) in any month's busiest hour
     */
    public record OptionTotal(
            String option,
            Range peakReplicas,
            double gpuHours,
            Range cost,
            double inputTokens,
            double outputTokens,
            double dollarsPerMtokAsPlanned,
            double dollarsPerMtokOutputOnly) {}

    /** One representative hour of one month for one class on one option. */
    public record HourRow(
            int month,
            int dayOfWeek,
            int hourOfDay,
            String workloadClass,
            String option,
            double load,
            int replicas,
            double weight) {}
}
