package dev.headroom.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The mixed-integer mix against brute-force enumeration of every fleet on small random instances. */
class MixOptimizerTest {

    @Test
    void matchesBruteForceOnSmallRandomInstances() {
        SplittableRandom r = new SplittableRandom(7);
        for (int t = 0; t < 40; t++) {
            int nc = 1 + r.nextInt(3), no = 1 + r.nextInt(3);
            double[] rps = new double[nc];
            double[][] cap = new double[nc][no];
            double[] price = new double[no];
            for (int c = 0; c < nc; c++) {
                rps[c] = r.nextDouble(0.5, 4);
                for (int o = 0; o < no; o++) cap[c][o] = r.nextDouble(1, 6);
            }
            for (int o = 0; o < no; o++) price[o] = r.nextDouble(1, 10);
            int redundancy = r.nextInt(2);
            var mix = new MixOptimizer().optimise(rps, cap, price, 0.8, redundancy, 0);
            double brute = bruteForce(rps, cap, price, 0.8, redundancy);
            assertEquals(brute, mix.cost(), 1e-6, "instance " + t);
            // The mix it returns is itself feasible at that cost.
            double cost = 0;
            for (int o = 0; o < no; o++) {
                double need = 0;
                boolean used = false;
                for (int c = 0; c < nc; c++) {
                    need += mix.split()[c][o] * rps[c] / (cap[c][o] * 0.8);
                    used |= mix.split()[c][o] > 1e-9;
                }
                assertTrue(
                        mix.replicas()[o] + 1e-6 >= need + (used ? redundancy : 0), "instance " + t + " option " + o);
                cost += mix.replicas()[o] * price[o];
            }
            for (int c = 0; c < nc; c++) {
                double sum = 0;
                for (int o = 0; o < no; o++) sum += mix.split()[c][o];
                assertEquals(1, sum, 1e-6);
            }
            assertEquals(mix.cost(), cost, 1e-6);
        }
    }

    @Test
    void twoClassesEachOnTheHardwareThatSuitsIt() {
        // Class 0 runs 4x better on option 0, class 1 4x better on option 1; prices equal: each goes to its own.
        var mix = new MixOptimizer()
                .optimise(new double[] {8, 8}, new double[][] {{4, 1}, {1, 4}}, new double[] {1, 1}, 1, 0, 0);
        assertEquals(2, mix.replicas()[0]);
        assertEquals(2, mix.replicas()[1]);
        assertEquals(1, mix.split()[0][0], 1e-9);
        assertEquals(1, mix.split()[1][1], 1e-9);
    }

    /**
     * Every fleet n ∈ [0, 12]^options; a fleet serves the load if some split fits, which (no redundancy coupling
     * aside) is the LP feasibility of the split — decided here greedily over all used-option subsets by a tiny LP.
     */
    private static double bruteForce(double[] rps, double[][] cap, double[] price, double u, int redundancy) {
        int no = price.length;
        int[] n = new int[no];
        double best = Double.POSITIVE_INFINITY;
        int max = 17; // 3 classes × ⌈4 ÷ (1 × 0.8)⌉ + redundancy: enough for any instance here
        int combos = (int) Math.pow(max + 1, no);
        for (int k = 0; k < combos; k++) {
            int rest = k;
            double cost = 0;
            for (int o = 0; o < no; o++) {
                n[o] = rest % (max + 1);
                rest /= max + 1;
                cost += n[o] * price[o];
            }
            if (cost >= best) continue;
            if (feasible(rps, cap, n, u, redundancy)) best = cost;
        }
        return best;
    }

    /** Can the classes be split over options with n replicas (minus redundancy on each used option)? */
    private static boolean feasible(double[] rps, double[][] cap, int[] n, double u, int redundancy) {
        int no = n.length;
        // Try every subset of options as the "used" set; used options lose `redundancy` replicas of capacity.
        for (int mask = 1; mask < (1 << no); mask++) {
            double[] room = new double[no];
            boolean ok = true;
            for (int o = 0; o < no; o++) {
                if ((mask & (1 << o)) == 0) continue;
                room[o] = n[o] - redundancy;
                if (room[o] <= 0) ok = false;
            }
            if (!ok) continue;
            if (splitFits(rps, cap, room, u)) return true;
        }
        return false;
    }

    /** LP feasibility: Σ_o x_co = 1, Σ_c x_co · rps_c ÷ (cap_co · u) ≤ room_o, x ≥ 0. */
    private static boolean splitFits(double[] rps, double[][] cap, double[] room, double u) {
        int nc = rps.length, no = room.length;
        var constraints = new java.util.ArrayList<org.apache.commons.math3.optim.linear.LinearConstraint>();
        for (int c = 0; c < nc; c++) {
            double[] a = new double[nc * no];
            for (int o = 0; o < no; o++) a[c * no + o] = 1;
            constraints.add(new org.apache.commons.math3.optim.linear.LinearConstraint(
                    a, org.apache.commons.math3.optim.linear.Relationship.EQ, 1));
        }
        for (int o = 0; o < no; o++) {
            double[] a = new double[nc * no];
            for (int c = 0; c < nc; c++) a[c * no + o] = rps[c] / (cap[c][o] * u);
            constraints.add(new org.apache.commons.math3.optim.linear.LinearConstraint(
                    a, org.apache.commons.math3.optim.linear.Relationship.LEQ, room[o]));
        }
        try {
            new org.apache.commons.math3.optim.linear.SimplexSolver()
                    .optimize(
                            new org.apache.commons.math3.optim.linear.LinearObjectiveFunction(new double[nc * no], 0),
                            new org.apache.commons.math3.optim.linear.LinearConstraintSet(constraints),
                            org.apache.commons.math3.optim.nonlinear.scalar.GoalType.MINIMIZE,
                            new org.apache.commons.math3.optim.linear.NonNegativeConstraint(true));
            return true;
        } catch (org.apache.commons.math3.optim.linear.NoFeasibleSolutionException e) {
            return false;
        }
    }
}
