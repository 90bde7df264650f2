package dev.headroom.optimizer;

import java.util.List;
import smile.math.kernel.MercerKernel;
import smile.regression.GaussianProcessRegression;

/**
 * A Gaussian-process surrogate of goodput against log(load), fitted with Smile's
 * {@link GaussianProcessRegression}: a Matérn 5/2 kernel, each probe's own measured variance on the
 * diagonal (so a noisy probe counts for less), and a nugget for what those variances do not explain. Amplitude,
 * length scale and nugget maximise Smile's log marginal likelihood over a bounded log grid: Smile's own optimiser
 * lets the nugget grow without bound, and on a few points of a peaked curve it then explains everything as
 * noise (a flat posterior); the bounds encode what we know — a length scale between half a unit and one unit of
 * log load (goodput rises and falls within a factor of a few in load), a nugget of at most a tenth of the variance.
 * Goodput is standardised before fitting; predictions are in the original unit.
 */
public final class GoodputSurrogate {
    /** One training point: x = log(load), y = goodput, variance = its squared standard error. */
    public record Point(double x, double y, double variance) {}

    /** Posterior mean and standard deviation at a point. */
    public record Prediction(double mean, double sd) {}

    private final GaussianProcessRegression<double[]> gp;
    private final double mean;
    private final double scale;

    private GoodputSurrogate(GaussianProcessRegression<double[]> gp, double mean, double scale) {
        this.gp = gp;
        this.mean = mean;
        this.scale = scale;
    }

    /** Fits the surrogate to at least two points. */
    public static GoodputSurrogate fit(List<Point> points) {
        if (points.size() < 2)
            throw new IllegalArgumentException("a surrogate needs at least two points, got " + points.size());

        int n = points.size();
        double mean = points.stream().mapToDouble(Point::y).average().orElse(0);
        double var = points.stream()
                        .mapToDouble(p -> (p.y() - mean) * (p.y() - mean))
                        .sum()
                / Math.max(1, n - 1);
        double scale = var > 0 ? Math.sqrt(var) : Math.max(1e-9, Math.abs(mean));
        double lo = points.stream().mapToDouble(Point::x).min().orElse(0);
        double hi = points.stream().mapToDouble(Point::x).max().orElse(1);
        double span = Math.max(hi - lo, 1e-3);
        double[][] x = new double[n][];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            Point p = points.get(i);
            // {x, own noise variance (standardised), identity}: the kernel adds the noise only to a point itself.
            x[i] = new double[] {p.x(), p.variance() / (scale * scale), i};
            y[i] = (p.y() - mean) / scale;
        }
        GaussianProcessRegression<double[]> gp = maximumLikelihood(x, y, span);
        return new GoodputSurrogate(gp, mean, scale);
    }

    private static final double[] AMPLITUDES = {0.25, 0.5, 1, 2, 4};
    private static final double[] NUGGETS = {1e-6, 1e-4, 1e-3, 1e-2, 0.1};
    private static final int LENGTHS = 14;
    /** The longest length scale, in units of log load: goodput rises and falls within a factor of a few. */
    static final double MAX_LENGTH = 1.0;
    /**
     * The shortest, half a unit of log load (a factor of 1.65): below the collapse, goodput does not turn within less.
     * Shorter fits chase probe noise, and the posterior's uncertainty between any two probes then sends expected
     * improvement exploring loads far below the peak (measured: 43 % vs 30 % of 30 servers within 98 % of the max).
     */
    static final double MIN_LENGTH = 0.5;

    /** The fit with the largest log marginal likelihood on the bounded grid of hyperparameters. */
    private static GaussianProcessRegression<double[]> maximumLikelihood(double[][] x, double[] y, double span) {
        double shortest = Math.min(MIN_LENGTH, span), longest = Math.max(shortest, Math.min(MAX_LENGTH, span));
        GaussianProcessRegression<double[]> best = null;
        for (int i = 0; i < LENGTHS; i++) {
            double length = shortest * Math.pow(longest / shortest, i / (LENGTHS - 1.0));
            for (double amplitude : AMPLITUDES) {
                for (double nugget : NUGGETS) {
                    GaussianProcessRegression<double[]> gp;
                    try {
                        gp = GaussianProcessRegression.fit(
                                x, y, new HeteroscedasticKernel(amplitude, length, span), nugget, false, 1e-5, 0);
                    } catch (RuntimeException notPositiveDefinite) {
                        continue;
                    }
                    if (best == null || gp.L > best.L) best = gp;
                }
            }
        }
        if (best == null) throw new IllegalStateException("no Gaussian-process fit: the kernel matrix is singular");
        return best;
    }

    /** Posterior at x = log(load). */
    public Prediction predict(double x) {
        double[] est = new double[2];
        gp.predict(new double[] {x, 0, -1}, est);
        double sd = Double.isNaN(est[1]) ? 0 : est[1];
        return new Prediction(mean + scale * est[0], scale * sd);
    }

    /** The fitted hyperparameters, for the report: amplitude, length scale (in log load), nugget (standardised). */
    public double[] hyperparameters() {
        double[] k = gp.kernel.hyperparameters();
        return new double[] {k[0], k[1], gp.noise};
    }

    /**
     * Matérn 5/2, amplitude · (1 + s + s²/3) · e^(−s) with s = √5·|x₁ − x₂| ÷ ℓ (the usual choice for Bayesian
     * optimisation: smooth, but not so smooth that a sharp peak forces a tiny length scale), plus a point's own noise
     * variance when it is paired with itself.
     * Points are {@code {x, variance, id}}; a query point has variance 0 and id −1.
     */
    record HeteroscedasticKernel(double amplitude, double length, double span) implements MercerKernel<double[]> {
        @Override
        public double k(double[] a, double[] b) {
            double d = Math.abs(a[0] - b[0]) / length;
            double s5 = Math.sqrt(5) * d;
            return amplitude * (1 + s5 + s5 * s5 / 3) * Math.exp(-s5) + (a[2] == b[2] ? a[1] : 0);
        }

        @Override
        public double[] kg(double[] a, double[] b) {
            double s5 = Math.sqrt(5) * Math.abs(a[0] - b[0]) / length;
            double e = Math.exp(-s5);
            double shape = (1 + s5 + s5 * s5 / 3) * e;
            // d/dℓ of (1 + s + s²/3)·e^(−s) with s = √5·r/ℓ: s²(1 + s)·e^(−s) / (3ℓ).
            return new double[] {
                amplitude * shape + (a[2] == b[2] ? a[1] : 0), shape, amplitude * s5 * s5 * (1 + s5) * e / (3 * length)
            };
        }

        @Override
        public MercerKernel<double[]> of(double[] params) {
            return new HeteroscedasticKernel(params[0], params[1], span);
        }

        @Override
        public double[] hyperparameters() {
            return new double[] {amplitude, length};
        }

        @Override
        public double[] lo() {
            return new double[] {0.25, Math.min(MIN_LENGTH, span)};
        }

        @Override
        public double[] hi() {
            return new double[] {4, Math.min(MAX_LENGTH, span)};
        }
    }
}
