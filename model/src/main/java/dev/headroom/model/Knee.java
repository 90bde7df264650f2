package dev.headroom.model;

import java.util.List;

/**
 * Where throughput stops paying for latency in a sweep. Headroom takes the knee as the load point of maximum
 * <em>power</em> (Kleinrock): output tokens/s ÷ median e2e latency. Below it, more load buys throughput faster
 * than it costs latency; above it, each extra token/s costs proportionally more latency. Points must be in
 * increasing load order; points with no completed requests are skipped.
 */
public final class Knee {
    private Knee() {}

    /** Index of the knee, or -1 when no point has both a throughput and a latency. */
    public static int find(List<Summary> points) {
        int best = -1;
        double bestPower = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < points.size(); i++) {
            double p = power(points.get(i));
            if (!Double.isNaN(p) && p > bestPower) {
                bestPower = p;
                best = i;
            }
        }
        return best;
    }

    /** Output tokens/s ÷ e2e p50 (ms), or NaN. */
    public static double power(Summary s) {
        double e2e = s.distribution(Metric.E2E_MS).p50();
        if (Double.isNaN(e2e) || e2e <= 0 || s.outputTokensPerS() <= 0) return Double.NaN;
        return s.outputTokensPerS() / e2e;
    }
}
