package dev.headroom.model.plan;

import dev.headroom.model.Metric;
import dev.headroom.model.Summary;

/**
 * One load point as the Pareto picture sees it: how fast each user's answer streams against how much one GPU serves
 * (and what a million output tokens cost there).
 *
 * @param source                 what ran it: a run directory, or a configuration's name
 * @param load                   the load point, as its run labels it ({@code 16 users}, {@code 4.0 req/s})
 * @param tokensPerSecondPerUser output tokens per second one request streams: 1000 ÷ TPOT p50 (ms)
 * @param tokensPerSecondPerGpu  output tokens per second over the measured window ÷ the replica's GPUs
 * @param dollarsPerOutputMtok   the replica's hourly price ÷ its output tokens per hour × 10⁶; NaN without a price
 * @param feasible               whether the point met its SLO; null when none was given (every point counts)
 * @param onFront                no feasible point streams faster per user and serves more per GPU at once
 * @param onCostFront            no feasible point streams faster per user and costs less per Mtok at once
 */
public record ParetoPoint(
        String source,
        String load,
        double tokensPerSecondPerUser,
        double tokensPerSecondPerGpu,
        double dollarsPerOutputMtok,
        Boolean feasible,
        boolean onFront,
        boolean onCostFront) {

    /**
     * A load point's summary on the picture: {@code gpus} GPUs in the replica that served it, {@code hourly} dollars
     * per replica-hour (NaN: no price); feasible by its SLO when it was judged against one.
     */
    public static ParetoPoint of(String source, String load, Summary s, int gpus, double hourly) {
        double tokens = s.outputTokensPerS();
        return new ParetoPoint(
                source,
                load,
                perUser(s),
                tokens / gpus,
                dollarsPerOutputMtok(hourly, tokens),
                s.slo().isEmpty() ? null : s.sloPass(),
                false,
                false);
    }

    /** Output tokens per second one request streams: 1000 ÷ its TPOT p50 in ms; NaN without one. */
    public static double perUser(Summary s) {
        double tpot = s.distribution(Metric.TPOT_MS).p50();
        return tpot > 0 ? 1000 / tpot : Double.NaN;
    }

    /** Dollars per million output tokens of a replica at {@code hourly} $/h serving {@code tokensPerSecond}. */
    public static double dollarsPerOutputMtok(double hourly, double tokensPerSecond) {
        return tokensPerSecond > 0 ? hourly / (tokensPerSecond * 3600) * 1e6 : Double.NaN;
    }

    /** Whether it counts for the fronts: it met its SLO, or none was given. */
    public boolean admissible() {
        return feasible == null || feasible;
    }

    ParetoPoint marked(boolean front, boolean costFront) {
        return new ParetoPoint(
                source,
                load,
                tokensPerSecondPerUser,
                tokensPerSecondPerGpu,
                dollarsPerOutputMtok,
                feasible,
                front,
                costFront);
    }
}
