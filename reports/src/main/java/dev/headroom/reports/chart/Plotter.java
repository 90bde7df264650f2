package dev.headroom.reports.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Lays a {@link Chart} out on a {@link Canvas}: scales, axes with ticks, grid, series, annotations, legend. */
final class Plotter {
    static final int WIDTH = 640, HEIGHT = 360;
    private static final int LEFT = 64, RIGHT = 16, TOP = 34, BOTTOM = 70;
    private static final int GREY = 0x999999, DARK = 0x333333;

    private Plotter() {}

    static void draw(Chart c, Canvas g) {
        g.rect(0, 0, WIDTH, HEIGHT, 0xFFFFFF, 1);
        g.text(LEFT, 20, c.title, 14, DARK, -1, false);
        double[] xr = range(c, true), yr = range(c, false);
        if (xr == null || yr == null) {
            g.text(WIDTH / 2.0, HEIGHT / 2.0, "no data", 13, GREY, 0, false);
            return;
        }
        if (c.categories != null) {
            xr = new double[] {-0.6, c.categories.size() - 0.4};
        }
        if (!c.logY && c.categories == null) yr[0] = Math.min(yr[0], 0);
        if (c.categories != null) yr[0] = 0;
        Scale sx = new Scale(xr[0], xr[1], LEFT, WIDTH - RIGHT, c.logX && c.categories == null);
        Scale sy = new Scale(yr[0], yr[1], HEIGHT - BOTTOM, TOP, c.logY);
        // Spans under everything.
        for (Chart.Span s : c.spans) {
            double a = sx.px(Math.max(s.from(), xr[0])), b = sx.px(Math.min(s.to(), xr[1]));
            g.rect(Math.min(a, b), TOP, Math.max(1, Math.abs(b - a)), HEIGHT - BOTTOM - TOP, 0xBBBBBB, 0.25);
            g.text(Math.min(a, b) + 3, TOP + 12, s.label(), 10, DARK, -1, false);
        }
        axes(c, g, sx, sy);
        for (Chart.Band b : c.bands) {
            int n = b.x().length;
            double[] px = new double[2 * n], py = new double[2 * n];
            for (int i = 0; i < n; i++) {
                px[i] = sx.px(b.x()[i]);
                py[i] = sy.px(b.high()[i]);
                px[2 * n - 1 - i] = sx.px(b.x()[i]);
                py[2 * n - 1 - i] = sy.px(b.low()[i]);
            }
            g.polygon(px, py, Canvas.color(b.color()), 0.2);
        }
        for (Chart.Series s : c.series) series(g, s, sx, sy);
        for (Chart.Rule r : c.rules) {
            int color = 0xB00020;
            if (r.vertical()) {
                double x = sx.px(r.value());
                g.line(x, TOP, x, HEIGHT - BOTTOM, color, 1, true);
                g.text(x + 3, TOP + 24 + 12 * r.color(), r.label(), 10, color, -1, false);
            } else {
                double y = sy.px(r.value());
                g.line(LEFT, y, WIDTH - RIGHT, y, color, 1, true);
                g.text(WIDTH - RIGHT - 3, y - 4, r.label(), 10, color, 1, false);
            }
        }
        legend(c, g);
    }

    private static void series(Canvas g, Chart.Series s, Scale sx, Scale sy) {
        int color = Canvas.color(s.color());
        List<double[]> pts = new ArrayList<>();
        for (int i = 0; i < s.x().length; i++) {
            if (Double.isFinite(s.x()[i]) && Double.isFinite(s.y()[i]) && sx.valid(s.x()[i]) && sy.valid(s.y()[i])) {
                pts.add(new double[] {sx.px(s.x()[i]), sy.px(s.y()[i]), i});
            }
        }
        switch (s.style()) {
            case LINE, STEP -> {
                List<double[]> path = new ArrayList<>();
                for (int k = 0; k < pts.size(); k++) {
                    if (s.style() == Chart.Style.STEP && k > 0)
                        path.add(new double[] {pts.get(k)[0], pts.get(k - 1)[1]});
                    path.add(pts.get(k));
                }
                g.polyline(
                        path.stream().mapToDouble(p -> p[0]).toArray(),
                        path.stream().mapToDouble(p -> p[1]).toArray(),
                        color,
                        2);
            }
            case POINTS -> {
                for (double[] p : pts) {
                    g.circle(p[0], p[1], 4, color);
                    if (s.labels() != null) g.text(p[0] + 5, p[1] - 5, s.labels()[(int) p[2]], 10, DARK, -1, false);
                }
            }
            case BARS -> {
                double w = Math.max(4, (sx.px(1) - sx.px(0)) * 0.6);
                for (double[] p : pts) {
                    double base = sy.px(Math.max(sy.lo, 0));
                    g.rect(p[0] - w / 2, Math.min(p[1], base), w, Math.abs(base - p[1]), color, 0.85);
                    g.text(p[0], Math.min(p[1], base) - 4, fmt(s.y()[(int) p[2]]), 10, DARK, 0, false);
                }
            }
        }
    }

    private static void axes(Chart c, Canvas g, Scale sx, Scale sy) {
        int x0 = LEFT, x1 = WIDTH - RIGHT, y0 = HEIGHT - BOTTOM, y1 = TOP;
        for (double t : sy.ticks()) {
            double y = sy.px(t);
            g.line(x0, y, x1, y, 0xE5E5E5, 1, false);
            g.text(x0 - 6, y + 4, fmt(t), 10, DARK, 1, false);
        }
        if (c.categories != null) {
            for (int i = 0; i < c.categories.size(); i++)
                g.text(sx.px(i), y0 + 16, c.categories.get(i), 10, DARK, 0, false);
        } else {
            for (double t : sx.ticks()) {
                double x = sx.px(t);
                g.line(x, y0, x, y1, 0xF0F0F0, 1, false);
                g.text(x, y0 + 16, fmt(t), 10, DARK, 0, false);
            }
        }
        g.line(x0, y0, x1, y0, DARK, 1, false);
        g.line(x0, y0, x0, y1, DARK, 1, false);
        g.text((x0 + x1) / 2.0, y0 + 34, c.xLabel + (sx.log ? " (log scale)" : ""), 11, DARK, 0, false);
        g.text(16, (y0 + y1) / 2.0, c.yLabel + (sy.log ? " (log)" : ""), 11, DARK, 0, true);
    }

    private static void legend(Chart c, Canvas g) {
        double x = LEFT;
        double y = HEIGHT - 14;
        for (Chart.Series s : c.series) {
            if (s.name() == null || s.name().isEmpty()) continue;
            g.rect(x, y - 8, 10, 10, Canvas.color(s.color()), 1);
            g.text(x + 14, y + 1, s.name(), 10, DARK, -1, false);
            x += 22 + 6.2 * s.name().length();
        }
        for (Chart.Band b : c.bands) {
            if (b.name() == null || b.name().isEmpty()) continue;
            g.rect(x, y - 8, 10, 10, Canvas.color(b.color()), 0.3);
            g.text(x + 14, y + 1, b.name(), 10, DARK, -1, false);
            x += 22 + 6.2 * b.name().length();
        }
    }

    /** Min and max of the finite data on one axis (including bands, spans and rules), or null with no data. */
    private static double[] range(Chart c, boolean xAxis) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        boolean log = xAxis ? c.logX : c.logY;
        List<double[]> arrays = new ArrayList<>();
        for (Chart.Series s : c.series) arrays.add(xAxis ? s.x() : s.y());
        for (Chart.Band b : c.bands) {
            if (xAxis) arrays.add(b.x());
            else {
                arrays.add(b.low());
                arrays.add(b.high());
            }
        }
        for (double[] a : arrays) {
            for (double v : a) {
                if (!Double.isFinite(v) || (log && v <= 0)) continue;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (lo > hi) return null;
        for (Chart.Rule r : c.rules) {
            if (r.vertical() == xAxis && Double.isFinite(r.value()) && (!log || r.value() > 0)) {
                lo = Math.min(lo, r.value());
                hi = Math.max(hi, r.value());
            }
        }
        if (!xAxis) hi = hi + (hi - lo) * 0.08;
        if (hi == lo) {
            hi = lo == 0 ? 1 : lo * 1.1 + (lo < 0 ? -0 : 0);
            if (lo > 0 && !log) lo = 0;
        }
        return new double[] {lo, hi};
    }

    static String fmt(double v) {
        double a = Math.abs(v);
        if (a == 0) return "0";
        if (a >= 1e6) return String.format(Locale.ROOT, "%.3gM", v / 1e6);
        if (a >= 1e4) return String.format(Locale.ROOT, "%.0fk", v / 1e3);
        if (a >= 100 || v == Math.rint(v)) return String.format(Locale.ROOT, "%.0f", v);
        String s = String.format(Locale.ROOT, a >= 1 ? "%.3g" : "%.2g", v);
        return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /** A linear or log mapping from data to pixels, with readable ticks. */
    static final class Scale {
        final double lo, hi, p0, p1;
        final boolean log;

        Scale(double lo, double hi, double p0, double p1, boolean log) {
            this.log = log && lo > 0;
            this.lo = lo;
            this.hi = hi;
            this.p0 = p0;
            this.p1 = p1;
        }

        boolean valid(double v) {
            return !log || v > 0;
        }

        double px(double v) {
            double t = log ? (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : (v - lo) / (hi - lo);
            return p0 + t * (p1 - p0);
        }

        List<Double> ticks() {
            List<Double> out = new ArrayList<>();
            if (log) {
                for (double d = Math.pow(10, Math.floor(Math.log10(lo))); d <= hi * 1.0001; d *= 10) {
                    for (double m : new double[] {1, 2, 5}) {
                        double t = d * m;
                        if (t >= lo * 0.9999 && t <= hi * 1.0001) out.add(t);
                    }
                }
                return out;
            }
            double step = Math.pow(10, Math.floor(Math.log10((hi - lo) / 5)));
            for (double m : new double[] {1, 2, 5, 10}) {
                if ((hi - lo) / (step * m) <= 6) {
                    step *= m;
                    break;
                }
            }
            for (double t = Math.ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step)
                out.add(Math.abs(t) < 1e-12 ? 0 : t);
            return out;
        }
    }
}
