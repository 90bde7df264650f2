package dev.headroom.reports.html;

import java.util.Arrays;
import java.util.Locale;

/** Formatting and reading numbers for the report. */
final class Numbers {
    private Numbers() {}

    /** A number at the report's precision: whole numbers whole (18, not 18.0), else 3 significant digits or more. */
    static String f(double v) {
        if (Double.isNaN(v)) return "-";
        double a = Math.abs(v);
        if (v == Math.rint(v) && a < 1e15) return String.format(Locale.ROOT, "%,.0f", v);
        if (a >= 1000) return String.format(Locale.ROOT, "%,.0f", v);
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", v);
        return String.format(Locale.ROOT, "%.3g", v);
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f %%", v * 100);
    }

    static String money(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "$%,.0f", v);
    }

    /** The sorted values' empirical CDF as (value, fraction) arrays, thinned to at most 400 points. */
    static double[][] cdf(double[] sorted) {
        int n = sorted.length;
        int step = Math.max(1, n / 400);
        int m = (n + step - 1) / step + 1;
        double[] x = new double[m], y = new double[m];
        int k = 0;
        for (int i = 0; i < n; i += step) {
            x[k] = sorted[i];
            y[k++] = (i + 1.0) / n;
        }
        x[k] = sorted[n - 1];
        y[k++] = 1;
        return new double[][] {Arrays.copyOf(x, k), Arrays.copyOf(y, k)};
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) return Double.NaN;
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
