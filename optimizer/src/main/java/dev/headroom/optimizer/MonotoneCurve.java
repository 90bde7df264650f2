package dev.headroom.optimizer;

import org.apache.commons.math3.analysis.interpolation.LinearInterpolator;
import org.apache.commons.math3.analysis.polynomials.PolynomialSplineFunction;

/**
 * A non-decreasing curve through isotonic-fitted points, linear between them (so it stays monotone), and its
 * root. x is usually log(load).
 */
public final class MonotoneCurve {
    private final double[] x;
    private final double[] y;
    private final PolynomialSplineFunction f;

    /** @param x strictly increasing; @param y non-decreasing (e.g. from {@link Pava}) */
    public MonotoneCurve(double[] x, double[] y) {
        if (x.length != y.length || x.length < 1)
            throw new IllegalArgumentException("need matching, non-empty x and y");
        for (int i = 1; i < x.length; i++) {
            if (!(x[i] > x[i - 1])) throw new IllegalArgumentException("x must be strictly increasing at " + i);
            if (y[i] < y[i - 1]) throw new IllegalArgumentException("y must be non-decreasing at " + i);
        }
        this.x = x.clone();
        this.y = y.clone();
        this.f = x.length >= 2 ? new LinearInterpolator().interpolate(this.x, this.y) : null;
    }

    /** The fitted isotonic regression of (x, y, w), as a curve. Points with equal x are pooled first. */
    public static MonotoneCurve fit(double[] x, double[] y, double[] w) {
        return new MonotoneCurve(x, Pava.fit(y, w));
    }

    /** Value at {@code at}, flat beyond the ends. */
    public double value(double at) {
        if (at <= x[0]) return y[0];
        if (at >= x[x.length - 1]) return y[y.length - 1];
        return f.value(at);
    }

    /**
     * The smallest x in [lo, hi] where the curve reaches 0, by walking the linear pieces; NaN when it stays
     * below 0 on the interval (or is already above at lo: then lo).
     */
    public double root(double lo, double hi) {
        if (value(lo) >= 0) return lo;
        if (value(hi) < 0) return Double.NaN;
        double prevX = lo, prevY = value(lo);
        for (int i = 0; i <= x.length; i++) {
            double nx = i < x.length ? Math.min(Math.max(x[i], lo), hi) : hi;
            if (nx <= prevX) continue;
            double ny = value(nx);
            if (ny >= 0) {
                if (ny == prevY) return nx;
                return prevX + (0 - prevY) * (nx - prevX) / (ny - prevY);
            }
            prevX = nx;
            prevY = ny;
        }
        return hi;
    }
}
