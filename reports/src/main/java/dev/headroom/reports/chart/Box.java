package dev.headroom.reports.chart;

import java.util.Locale;

/** An axis-aligned rectangle in pixels (origin top-left): a label's extent, a mark's, the plot area. */
record Box(double x, double y, double w, double h) {
    double right() {
        return x + w;
    }

    double bottom() {
        return y + h;
    }

    /** Whether the two share area (touching edges do not count). */
    boolean overlaps(Box o) {
        return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }

    boolean inside(Box o) {
        double e = 1e-6;
        return x >= o.x - e && y >= o.y - e && right() <= o.right() + e && bottom() <= o.bottom() + e;
    }

    Box grow(double d) {
        return new Box(x - d, y - d, w + 2 * d, h + 2 * d);
    }

    /** Whether the segment (x1, y1)–(x2, y2) passes through this box (Liang–Barsky clipping). */
    boolean crosses(double x1, double y1, double x2, double y2) {
        double t0 = 0, t1 = 1, dx = x2 - x1, dy = y2 - y1;
        double[] p = {-dx, dx, -dy, dy};
        double[] q = {x1 - x, right() - x1, y1 - y, bottom() - y1};
        for (int i = 0; i < 4; i++) {
            if (p[i] == 0) {
                if (q[i] < 0) return false;
            } else {
                double t = q[i] / p[i];
                if (p[i] < 0) t0 = Math.max(t0, t);
                else t1 = Math.min(t1, t);
                if (t0 > t1) return false;
            }
        }
        return true;
    }

    /** "x y w h" rounded to 0.1 px, as the SVG's {@code data-box} attribute carries it. */
    String attribute() {
        return String.format(Locale.ROOT, "%.1f %.1f %.1f %.1f", x, y, w, h);
    }
}
