package dev.headroom.model.plan;

import java.util.List;
import java.util.Map;

/**
 * Hardware options side by side over the same forecast, ranked by cost, and — with several classes — the cheapest
 * mix of options.
 *
 * @param ranking one row per option, cheapest first
 * @param mix     the cheapest mix (null with a single class or a single option)
 */
public record Comparison(Plan plan, List<OptionRow> ranking, Mix mix) {

    /**
     * One option.
     *
     * @param dollarsPerMtokAtCapacity blended over the classes, weighted by the tokens each is forecast to serve
     * @param lastMonthCost the cost of the horizon's last month (point)
     */
    public record OptionRow(
            String option,
            List<Capacity> capacities,
            Range peakReplicas,
            double lastMonthCost,
            Range horizonCost,
            double dollarsPerMtokAtCapacity,
            double dollarsPerMtokAsPlanned,
            boolean cheapest) {}

    /**
     * The cheapest mix, month by month: each month's fleet is sized for every class at its busiest hour at once
     * (a static fleet; conservative when classes peak at different hours), replicas shared by the classes it serves.
     *
     * @param bestSingleCost the cheapest single option sized the same way (shared replicas), for the saving
     */
    public record Mix(List<MixMonth> months, double cost, String bestSingleOption, double bestSingleCost) {
        public double saving() {
            return bestSingleCost - cost;
        }
    }

    /** One month of the mix: replicas per option, each class's split across options, and the cost. */
    public record MixMonth(
            int month,
            Map<String, Integer> replicas,
            Map<String, Map<String, Double>> split,
            double cost,
            double bestSingleCost) {}
}
