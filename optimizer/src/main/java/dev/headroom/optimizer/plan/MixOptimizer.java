package dev.headroom.optimizer.plan;

import dev.headroom.model.BadInputException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NoFeasibleSolutionException;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

/**
 * The cheapest mix of hardware options for several workload classes at once (the problem Mélange solves): integer
 * replicas n_o of each option and a split x_co of each class's load across options, minimising Σ price_o · n_o
 * subject to
 * <ul>
 *   <li>Σ_o x_co = 1 for every class (all of its load is served);</li>
 *   <li>Σ_c x_co · rps_c ÷ (capacity_co × utilization) + redundancy · y_o ≤ n_o for every option (enough replicas,
 *       plus the redundancy of any option in use);</li>
 *   <li>x_co ≤ y_o, min_replicas · y_o ≤ n_o, y_o ∈ {0, 1} (an option is either used or not).</li>
 * </ul>
 * Solved exactly as a small mixed-integer program: the LP relaxation with Commons Math's {@link SimplexSolver}
 * inside a depth-first branch and bound on n and y.
 */
public final class MixOptimizer {
    private static final double EPS = 1e-6;

    /**
     * A mix: replicas per option, each class's split, and its price.
     *
     * @param replicas per option, in the order given
     * @param split    split[c][o]: the share of class c's load served by option o
     */
    public record Mix(int[] replicas, double[][] split, double cost) {}

    /**
     * @param rps       peak requests/s per class
     * @param capacity  capacity[c][o]: requests/s one replica of option o sustains for class c (≤ 0: cannot serve)
     * @param price     price per replica (for the period being planned) per option
     */
    public Mix optimise(
            double[] rps, double[][] capacity, double[] price, double utilization, int redundancy, int minReplicas) {
        int nc = rps.length, no = price.length;
        // Variable layout: x[c][o] (nc·no), then n[o] (no), then y[o] (no).
        int vars = nc * no + 2 * no;
        List<LinearConstraint> base = new ArrayList<>();
        for (int c = 0; c < nc; c++) {
            double[] a = new double[vars];
            for (int o = 0; o < no; o++) a[x(c, o, no)] = 1;
            base.add(new LinearConstraint(a, Relationship.EQ, rps[c] > 0 ? 1 : 0));
        }
        for (int o = 0; o < no; o++) {
            double[] a = new double[vars];
            for (int c = 0; c < nc; c++) {
                if (capacity[c][o] > 0) a[x(c, o, no)] = rps[c] / (capacity[c][o] * utilization);
            }
            a[nc * no + o] = -1;
            a[nc * no + no + o] = redundancy;
            base.add(new LinearConstraint(a, Relationship.LEQ, 0));
            double[] floor = new double[vars];
            floor[nc * no + no + o] = minReplicas;
            floor[nc * no + o] = -1;
            base.add(new LinearConstraint(floor, Relationship.LEQ, 0));
            double[] yMax = new double[vars];
            yMax[nc * no + no + o] = 1;
            base.add(new LinearConstraint(yMax, Relationship.LEQ, 1));
            for (int c = 0; c < nc; c++) {
                double[] link = new double[vars];
                link[x(c, o, no)] = 1;
                link[nc * no + no + o] = -1;
                base.add(new LinearConstraint(link, Relationship.LEQ, 0));
                if (!(capacity[c][o] > 0)) {
                    double[] none = new double[vars];
                    none[x(c, o, no)] = 1;
                    base.add(new LinearConstraint(none, Relationship.EQ, 0));
                }
            }
        }
        double[] objective = new double[vars];
        for (int o = 0; o < no; o++) objective[nc * no + o] = price[o];
        Search s = new Search(new LinearObjectiveFunction(objective, 0), vars, nc * no);
        s.branch(base);
        if (s.best == null) throw new BadInputException("no mix of the options can serve every class");
        int[] n = new int[no];
        double[][] split = new double[nc][no];
        for (int o = 0; o < no; o++) n[o] = (int) Math.round(s.best[nc * no + o]);
        for (int c = 0; c < nc; c++) for (int o = 0; o < no; o++) split[c][o] = Math.max(0, s.best[x(c, o, no)]);
        return new Mix(n, split, s.bestCost);
    }

    private static int x(int c, int o, int no) {
        return c * no + o;
    }

    /** Depth-first branch and bound over the integer variables (index ≥ firstInteger). */
    private static final class Search {
        final LinearObjectiveFunction objective;
        final int vars;
        final int firstInteger;
        double[] best;
        double bestCost = Double.POSITIVE_INFINITY;

        Search(LinearObjectiveFunction objective, int vars, int firstInteger) {
            this.objective = objective;
            this.vars = vars;
            this.firstInteger = firstInteger;
        }

        void branch(List<LinearConstraint> constraints) {
            PointValuePair lp;
            try {
                lp = new SimplexSolver()
                        .optimize(
                                new MaxIter(10_000),
                                objective,
                                new LinearConstraintSet(constraints),
                                GoalType.MINIMIZE,
                                new NonNegativeConstraint(true));
            } catch (NoFeasibleSolutionException infeasible) {
                return;
            }
            if (lp.getValue() >= bestCost - EPS) return; // the relaxation already costs as much as the best found
            double[] v = lp.getPoint();
            int frac = -1;
            double most = EPS;
            for (int i = firstInteger; i < vars; i++) {
                double f = Math.abs(v[i] - Math.round(v[i]));
                if (f > most) {
                    most = f;
                    frac = i;
                }
            }
            if (frac < 0) {
                best = v.clone();
                bestCost = lp.getValue();
                return;
            }
            double[] a = new double[vars];
            a[frac] = 1;
            // Round up first: a feasible integer fleet is found early, and its cost prunes the rest.
            List<LinearConstraint> up = new ArrayList<>(constraints);
            up.add(new LinearConstraint(a, Relationship.GEQ, Math.ceil(v[frac])));
            branch(up);
            List<LinearConstraint> down = new ArrayList<>(constraints);
            down.add(new LinearConstraint(a, Relationship.LEQ, Math.floor(v[frac])));
            branch(down);
        }
    }
}
