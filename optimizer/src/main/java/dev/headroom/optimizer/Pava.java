package dev.headroom.optimizer;

import java.util.Arrays;

/**
 * Weighted isotonic regression by the pool-adjacent-violators algorithm: the non-decreasing sequence closest
 * to the data in weighted least squares. Neither Smile nor Commons Math has it, so this is the one numeric
 * routine Headroom writes itself.
 */
public final class Pava {
    private Pava() {}

    /**
     * Fits a non-decreasing sequence to {@code y} (already ordered by x) with positive weights {@code w}.
     * Returns the fitted value for each input point.
     */
    public static double[] fit(double[] y, double[] w) {
        return fitWithWeights(y, w).values();
    }

    /** An isotonic fit: each point's fitted value, and the total weight of the block it was pooled into. */
    public record Fit(double[] values, double[] weights) {}

    /**
     * {@link #fit} together with each point's pooled weight: with weights 1/se², a fitted value's standard error is
     * 1/√weight.
     */
    public static Fit fitWithWeights(double[] y, double[] w) {
        int n = y.length;
        if (w.length != n) throw new IllegalArgumentException("y and w differ in length: " + n + " vs " + w.length);
        for (double wi : w) {
            if (!(wi > 0) || Double.isInfinite(wi))
                throw new IllegalArgumentException("weights must be positive and finite, got " + wi);
        }
        // Blocks of pooled points: their mean, total weight and size, kept as a stack.
        double[] mean = new double[n];
        double[] weight = new double[n];
        int[] size = new int[n];
        int blocks = 0;
        for (int i = 0; i < n; i++) {
            mean[blocks] = y[i];
            weight[blocks] = w[i];
            size[blocks] = 1;
            blocks++;
            // Pool while the last two blocks violate the order.
            while (blocks > 1 && mean[blocks - 2] > mean[blocks - 1]) {
                double wsum = weight[blocks - 2] + weight[blocks - 1];
                mean[blocks - 2] =
                        (mean[blocks - 2] * weight[blocks - 2] + mean[blocks - 1] * weight[blocks - 1]) / wsum;
                weight[blocks - 2] = wsum;
                size[blocks - 2] += size[blocks - 1];
                blocks--;
            }
        }
        double[] out = new double[n];
        double[] pooled = new double[n];
        int k = 0;
        for (int b = 0; b < blocks; b++) {
            Arrays.fill(out, k, k + size[b], mean[b]);
            Arrays.fill(pooled, k, k + size[b], weight[b]);
            k += size[b];
        }
        return new Fit(out, pooled);
    }
}
