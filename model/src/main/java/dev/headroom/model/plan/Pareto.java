package dev.headroom.model.plan;

import java.util.List;

/**
 * The Pareto fronts of a set of load points: among the points that met their SLO, those no other point beats on
 * tokens/s per user and tokens/s per GPU at once (and on tokens/s per user and $/Mtok out at once).
 */
public final class Pareto {
    private Pareto() {}

    /** {@code points} in their order, each marked on or off the two fronts. */
    public static List<ParetoPoint> mark(List<ParetoPoint> points) {
        List<ParetoPoint> ok = points.stream()
                .filter(ParetoPoint::admissible)
                .filter(p -> Double.isFinite(p.tokensPerSecondPerUser()) && Double.isFinite(p.tokensPerSecondPerGpu()))
                .toList();
        return points.stream()
                .map(p -> {
                    boolean in = ok.contains(p);
                    boolean front = in && ok.stream().noneMatch(q -> beatsOnGpu(q, p));
                    boolean cost = in
                            && Double.isFinite(p.dollarsPerOutputMtok())
                            && ok.stream().noneMatch(q -> beatsOnCost(q, p));
                    return p.marked(front, cost);
                })
                .toList();
    }

    private static boolean beatsOnGpu(ParetoPoint q, ParetoPoint p) {
        return dominates(
                q.tokensPerSecondPerUser(),
                q.tokensPerSecondPerGpu(),
                p.tokensPerSecondPerUser(),
                p.tokensPerSecondPerGpu());
    }

    private static boolean beatsOnCost(ParetoPoint q, ParetoPoint p) {
        return Double.isFinite(q.dollarsPerOutputMtok())
                && dominates(
                        q.tokensPerSecondPerUser(),
                        -q.dollarsPerOutputMtok(),
                        p.tokensPerSecondPerUser(),
                        -p.dollarsPerOutputMtok());
    }

    /** (a1, a2) at least as large as (b1, b2) in both and larger in one: both maximised. */
    static boolean dominates(double a1, double a2, double b1, double b2) {
        return a1 >= b1 && a2 >= b2 && (a1 > b1 || a2 > b2);
    }
}
