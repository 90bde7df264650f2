package dev.headroom.optimizer;

/**
 * The effective sample size of a sequence in the order it was measured: n ÷ τ with τ = 1 + 2 Σ ρ_k, the
 * autocorrelations ρ_k summed by Geyer's initial positive sequence (pairs ρ_{2j} + ρ_{2j+1} added while positive),
 * so correlation between neighbours shrinks the size and noise cannot inflate it. Long sequences (pooled inter-token
 * gaps) are first reduced to means of consecutive blocks, which keeps the cost linear. Between 1 and n.
 */
final class EffectiveSize {
    private static final int MAX_POINTS = 2048;

    private EffectiveSize() {}

    static double of(double[] x) {
        int n = x.length;
        if (n < 4) return Math.max(1, n);
        double var = variance(x);
        if (var <= 0) return n; // constant: nothing to correlate
        if (n <= MAX_POINTS) return Math.max(1, Math.min(n, n / tau(x)));
        // Block means: the variance of the overall mean is var(block means) × τ(block means) ÷ blocks.
        int b = (n + MAX_POINTS - 1) / MAX_POINTS;
        int blocks = n / b;
        double[] means = new double[blocks];
        for (int k = 0; k < blocks; k++) {
            double s = 0;
            for (int i = k * b; i < (k + 1) * b; i++) s += x[i];
            means[k] = s / b;
        }
        double vm = variance(means);
        if (vm <= 0) return n;
        double varOfMean = vm * tau(means) / blocks;
        return Math.max(1, Math.min(n, var / varOfMean));
    }

    /** The integrated autocorrelation time, at least 1. */
    private static double tau(double[] x) {
        int n = x.length;
        double mean = 0;
        for (double v : x) mean += v;
        mean /= n;
        double c0 = 0;
        for (double v : x) c0 += (v - mean) * (v - mean);
        if (c0 <= 0) return 1;
        double gammas = 0; // Σ_j (ρ_2j + ρ_2j+1) = 1 + Σ_{k≥1} ρ_k
        for (int lag = 0; lag + 1 < n / 2; lag += 2) {
            double pair = autocorrelation(x, mean, c0, lag) + autocorrelation(x, mean, c0, lag + 1);
            if (pair <= 0) break;
            gammas += pair;
        }
        return Math.max(1, 2 * gammas - 1);
    }

    private static double autocorrelation(double[] x, double mean, double c0, int lag) {
        if (lag == 0) return 1;
        double c = 0;
        for (int i = 0; i + lag < x.length; i++) c += (x[i] - mean) * (x[i + lag] - mean);
        return c / c0;
    }

    private static double variance(double[] x) {
        double mean = 0;
        for (double v : x) mean += v;
        mean /= x.length;
        double s = 0;
        for (double v : x) s += (v - mean) * (v - mean);
        return s / x.length;
    }
}
