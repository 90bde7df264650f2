package dev.headroom.reports.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lays a {@link Chart} out on a {@link Canvas}: scales, axes with ticks, grid, series, annotations, legend. Every
 * text is placed against a {@link Layout} so that none overlaps another, annotation labels stay inside the plot and
 * off the data, and what finds no room is named in the legend instead of being drawn over something.
 */
final class Plotter {
    static final int WIDTH = 640, HEIGHT = 360;
    /** The tallest a chart gets: its legend wraps onto extra rows below the base height. */
    static final int MAX_HEIGHT = HEIGHT + 14 * 6;

    private static final int LEFT = 64, RIGHT = 16, TOP = 34, BOTTOM = 70;
    private static final int GREY = 0x999999, DARK = 0x333333, RULE = 0xB00020, SPAN = 0x8C8C8C;
    /** The narrowest a shaded interval is drawn, so that a short one on a wide (log) axis stays visible. */
    static final double MIN_SPAN_PX = 6;

    private Plotter() {}

    static Layout draw(Chart c, Canvas g) {
        int x0 = LEFT, x1 = WIDTH - RIGHT, y0 = HEIGHT - BOTTOM, y1 = TOP;
        Layout l = new Layout(new Box(x0, y1, x1 - x0, y0 - y1));
        l.height = HEIGHT;
        g.rect(0, 0, WIDTH, MAX_HEIGHT, 0xFFFFFF, 1);
        text(g, l, LEFT, 20, fit(c.title, 14, WIDTH - LEFT - RIGHT), 14, DARK, -1, false, "title");
        double[] xr = range(c, true), yr = range(c, false);
        if (xr == null || yr == null) {
            text(g, l, WIDTH / 2.0, HEIGHT / 2.0, "no data", 13, GREY, 0, false, "label");
            return l;
        }
        Scale sx = new Scale(xr[0], xr[1], x0, x1, c.categories == null && xr[2] == 1);
        Scale sy = new Scale(yr[0], yr[1], y0, y1, yr[2] == 1);
        l.logX = sx.log;
        l.logY = sy.log;
        l.xRange = new double[] {sx.lo, sx.hi};
        l.yRange = new double[] {sy.lo, sy.hi};
        List<Box> spanBoxes = new ArrayList<>();
        for (Chart.Span s : c.spans) {
            double a = sx.px(Math.max(s.from(), sx.lo)), b = sx.px(Math.min(s.to(), sx.hi));
            double lo = Math.min(a, b), w = Math.abs(b - a);
            if (w < MIN_SPAN_PX) {
                lo = Math.max(x0, Math.min(x1 - MIN_SPAN_PX, (a + b) / 2 - MIN_SPAN_PX / 2));
                w = MIN_SPAN_PX;
            }
            g.rect(lo, y1, w, y0 - y1, SPAN, 0.22);
            g.line(lo, y1, lo, y0, SPAN, 1, false);
            g.line(lo + w, y1, lo + w, y0, SPAN, 1, false);
            spanBoxes.add(new Box(lo, y1, w, y0 - y1));
            l.spans.add(spanBoxes.getLast());
        }
        axes(c, g, l, sx, sy);
        for (Chart.Band b : c.bands) {
            int n = b.x().length;
            double[] px = new double[2 * n], py = new double[2 * n];
            for (int i = 0; i < n; i++) {
                px[i] = sx.px(b.x()[i]);
                py[i] = sy.px(sy.clamp(b.high()[i]));
                px[2 * n - 1 - i] = sx.px(b.x()[i]);
                py[2 * n - 1 - i] = sy.px(sy.clamp(b.low()[i]));
            }
            g.polygon(px, py, Canvas.color(b.color()), 0.2);
        }
        List<double[]> barTops = new ArrayList<>();
        for (int k = 0; k < c.series.size(); k++) series(g, l, c.series.get(k), k, sx, sy, barTops);
        for (Chart.Rule r : c.rules) {
            if (r.vertical()) {
                double x = sx.px(r.value());
                g.line(x, y1, x, y0, RULE, 1, true);
                l.segment(x, y1, x, y0);
            } else {
                double y = sy.px(r.value());
                g.line(x0, y, x1, y, RULE, 1, true);
                l.segment(x0, y, x1, y);
            }
        }
        List<Legend> legend = new ArrayList<>();
        for (Chart.Series s : c.series) {
            if (s.name() != null && !s.name().isEmpty() && s.style() != Chart.Style.BARS)
                legend.add(new Legend(s.name(), Canvas.color(s.color()), Swatch.SOLID));
        }
        for (Chart.Band b : c.bands) {
            if (b.name() != null && !b.name().isEmpty())
                legend.add(new Legend(b.name(), Canvas.color(b.color()), Swatch.FAINT));
        }
        // Annotations, most important first: each takes the first free place among its candidates.
        for (Chart.Rule r : c.rules) {
            Box placed = r.vertical()
                    ? besideVertical(l, sx.px(r.value()), r.label())
                    : alongHorizontal(l, sy.px(r.value()), r.label());
            if (placed != null)
                text(
                        g,
                        l,
                        placed.x(),
                        placed.bottom() - TextMetrics.descent(10),
                        r.label(),
                        10,
                        RULE,
                        -1,
                        false,
                        "label");
            else if (!r.label().isEmpty()) legend.add(new Legend(r.label(), RULE, Swatch.DASHED));
        }
        for (int i = 0; i < c.spans.size(); i++) {
            Chart.Span s = c.spans.get(i);
            Box placed = inSpan(l, spanBoxes.get(i), s.label());
            if (placed != null)
                text(
                        g,
                        l,
                        placed.x(),
                        placed.bottom() - TextMetrics.descent(10),
                        s.label(),
                        10,
                        DARK,
                        -1,
                        false,
                        "label");
            else if (!s.label().isEmpty()) legend.add(new Legend(s.label(), SPAN, Swatch.FAINT));
        }
        for (double[] t : barTops) {
            String v = c.series.get((int) t[3]).labels()[(int) t[2]];
            Box placed = first(
                    l,
                    true,
                    List.of(
                            TextMetrics.box(t[0], t[1] - 4, v, 10, 0, false),
                            TextMetrics.box(t[0], t[1] + 12, v, 10, 0, false)));
            if (placed != null)
                text(g, l, placed.x(), placed.bottom() - TextMetrics.descent(10), v, 10, DARK, -1, false, "value");
            else l.dropped.add(v);
        }
        for (Chart.Series s : c.series) {
            if (s.style() != Chart.Style.POINTS || s.labels() == null) continue;
            for (int i = 0; i < s.x().length; i++) {
                if (!drawable(s, i, sx, sy) || s.labels()[i] == null || s.labels()[i].isEmpty()) continue;
                String label = s.labels()[i];
                Box placed = aroundPoint(l, sx.px(s.x()[i]), sy.px(s.y()[i]), label);
                if (placed != null)
                    text(
                            g,
                            l,
                            placed.x(),
                            placed.bottom() - TextMetrics.descent(10),
                            label,
                            10,
                            DARK,
                            -1,
                            false,
                            "label");
                else l.dropped.add(label);
            }
        }
        legend(g, l, legend);
        return l;
    }

    /** Text drawn and recorded: every text on the chart goes through here. */
    private static void text(
            Canvas g,
            Layout l,
            double x,
            double y,
            String s,
            int size,
            int rgb,
            int anchor,
            boolean vertical,
            String role) {
        g.text(x, y, s, size, rgb, anchor, vertical, role);
        l.texts.add(new Layout.Placed(TextMetrics.box(x, y, s, size, anchor, vertical), s, role));
    }

    /** The first candidate inside the plot that is clear of texts and (with {@code data}) of the data. */
    private static Box first(Layout l, boolean data, List<Box> candidates) {
        for (Box b : candidates) if (b.inside(l.plot) && l.clear(b, data)) return b;
        return null;
    }

    /** A vertical rule's label: right of the line, else left of it, from the top of the plot downwards. */
    private static Box besideVertical(Layout l, double x, String s) {
        if (s.isEmpty()) return null;
        List<Box> c = new ArrayList<>();
        for (double y = l.plot.y() + 12; y <= l.plot.bottom() - 2; y += 12) {
            c.add(TextMetrics.box(x + 3, y, s, 10, -1, false));
            c.add(TextMetrics.box(x - 3, y, s, 10, 1, false));
        }
        return first(l, true, c);
    }

    /** A horizontal rule's label: above or below the line, from the right end leftwards. */
    private static Box alongHorizontal(Layout l, double y, String s) {
        if (s.isEmpty()) return null;
        List<Box> c = new ArrayList<>();
        for (double x = l.plot.right() - 3; x >= l.plot.x() + 3; x -= 24) {
            c.add(TextMetrics.box(x, y - 4, s, 10, 1, false));
            c.add(TextMetrics.box(x, y + 12, s, 10, 1, false));
        }
        return first(l, true, c);
    }

    /** A shaded interval's label: inside it from the top down, else just right or left of it. */
    private static Box inSpan(Layout l, Box span, String s) {
        if (s.isEmpty()) return null;
        List<Box> c = new ArrayList<>();
        for (double y = l.plot.y() + 12; y <= l.plot.bottom() - 2; y += 12)
            c.add(TextMetrics.box(span.x() + 3, y, s, 10, -1, false));
        for (double y = l.plot.y() + 12; y <= l.plot.bottom() - 2; y += 12) {
            c.add(TextMetrics.box(span.right() + 3, y, s, 10, -1, false));
            c.add(TextMetrics.box(span.x() - 3, y, s, 10, 1, false));
        }
        return first(l, true, c);
    }

    /** A point's label: above right, above left, below right, below left, above, below, right, left. */
    private static Box aroundPoint(Layout l, double x, double y, String s) {
        double a = TextMetrics.ascent(10);
        return first(
                l,
                true,
                List.of(
                        TextMetrics.box(x + 5, y - 5, s, 10, -1, false),
                        TextMetrics.box(x - 5, y - 5, s, 10, 1, false),
                        TextMetrics.box(x + 5, y + 5 + a, s, 10, -1, false),
                        TextMetrics.box(x - 5, y + 5 + a, s, 10, 1, false),
                        TextMetrics.box(x, y - 7, s, 10, 0, false),
                        TextMetrics.box(x, y + 7 + a, s, 10, 0, false),
                        TextMetrics.box(x + 7, y + a / 2, s, 10, -1, false),
                        TextMetrics.box(x - 7, y + a / 2, s, 10, 1, false)));
    }

    private static boolean drawable(Chart.Series s, int i, Scale sx, Scale sy) {
        return Double.isFinite(s.x()[i]) && Double.isFinite(s.y()[i]) && sx.valid(s.x()[i]) && sy.valid(s.y()[i]);
    }

    private static void series(
            Canvas g, Layout l, Chart.Series s, int index, Scale sx, Scale sy, List<double[]> barTops) {
        int color = Canvas.color(s.color());
        List<double[]> pts = new ArrayList<>();
        for (int i = 0; i < s.x().length; i++) {
            if (drawable(s, i, sx, sy)) pts.add(new double[] {sx.px(s.x()[i]), sy.px(s.y()[i]), i});
        }
        switch (s.style()) {
            case LINE, STEP -> {
                List<double[]> path = new ArrayList<>();
                for (int k = 0; k < pts.size(); k++) {
                    if (s.style() == Chart.Style.STEP && k > 0)
                        path.add(new double[] {pts.get(k)[0], pts.get(k - 1)[1]});
                    path.add(pts.get(k));
                }
                for (int k = 1; k < path.size(); k++)
                    l.segment(path.get(k - 1)[0], path.get(k - 1)[1], path.get(k)[0], path.get(k)[1]);
                if (path.size() == 1) l.marks.add(new Box(path.get(0)[0] - 1, path.get(0)[1] - 1, 2, 2));
                g.polyline(
                        path.stream().mapToDouble(p -> p[0]).toArray(),
                        path.stream().mapToDouble(p -> p[1]).toArray(),
                        color,
                        2);
            }
            case POINTS -> {
                for (double[] p : pts) {
                    g.circle(p[0], p[1], 4, color);
                    l.marks.add(new Box(p[0] - 4, p[1] - 4, 8, 8));
                }
            }
            case BARS -> {
                double w = Math.max(4, (sx.px(1) - sx.px(0)) * 0.6);
                for (double[] p : pts) {
                    double base = sy.px(sy.log ? sy.lo : Math.max(sy.lo, 0));
                    double top = Math.min(p[1], base);
                    int bar = Canvas.color((int) p[2]);
                    // A bar's height is at least 1 px, so a value near the axis still shows.
                    double h = Math.max(1, Math.abs(base - p[1]));
                    g.rect(p[0] - w / 2, Math.min(top, base - h), w, h, bar, 0.85);
                    l.marks.add(new Box(p[0] - w / 2, Math.min(top, base - h), w, h));
                    if (s.labels() != null) barTops.add(new double[] {p[0], Math.min(top, base - h), p[2], index});
                }
            }
        }
    }

    private static void axes(Chart c, Canvas g, Layout l, Scale sx, Scale sy) {
        int x0 = LEFT, x1 = WIDTH - RIGHT, y0 = HEIGHT - BOTTOM, y1 = TOP;
        for (double t : sy.ticks(c.fractionY)) {
            double y = sy.px(t);
            g.line(x0, y, x1, y, 0xE5E5E5, 1, false);
            String s = c.fractionY ? percent(t) : fmt(t);
            if (l.clear(TextMetrics.box(x0 - 6, y + 4, s, 10, 1, false), false))
                text(g, l, x0 - 6, y + 4, s, 10, DARK, 1, false, "tick");
        }
        if (c.categories != null) {
            double slot = Math.max(8, sx.px(1) - sx.px(0) - 4);
            for (int i = 0; i < c.categories.size(); i++)
                text(g, l, sx.px(i), y0 + 16, fit(c.categories.get(i), 10, slot), 10, DARK, 0, false, "tick");
        } else {
            for (double t : sx.ticks(false)) {
                double x = sx.px(t);
                g.line(x, y0, x, y1, 0xF0F0F0, 1, false);
                String s = fmt(t);
                Box b = TextMetrics.box(x, y0 + 16, s, 10, 0, false);
                if (b.x() >= 0 && b.right() <= WIDTH && l.clear(b, false))
                    text(g, l, x, y0 + 16, s, 10, DARK, 0, false, "tick");
            }
        }
        g.line(x0, y0, x1, y0, DARK, 1, false);
        g.line(x0, y0, x0, y1, DARK, 1, false);
        text(
                g,
                l,
                (x0 + x1) / 2.0,
                y0 + 34,
                fit(c.xLabel + (sx.log ? " (log scale)" : ""), 11, x1 - x0),
                11,
                DARK,
                0,
                false,
                "axis");
        String yl = c.yLabel + (sy.log ? " (log)" : "") + (c.fractionY ? " (%)" : "");
        text(g, l, 16, (y0 + y1) / 2.0, fit(yl, 11, y0 - y1 + 30), 11, DARK, 0, true, "axis");
    }

    /** How a legend entry is marked: a solid square, a faint one (a band, a span), a dashed line (a rule). */
    private enum Swatch {
        SOLID,
        FAINT,
        DASHED
    }

    private record Legend(String text, int color, Swatch swatch) {}

    /** Legend entries left to right below the axis title, wrapping onto new rows (the chart grows to hold them). */
    private static void legend(Canvas g, Layout l, List<Legend> entries) {
        double x = LEFT;
        double y = HEIGHT - 14;
        for (Legend e : entries) {
            String s = fit(e.text(), 10, WIDTH - LEFT - RIGHT - 16);
            double w = 14 + TextMetrics.width(s, 10) + 10;
            if (x > LEFT && x + w > WIDTH - RIGHT && y + 14 < MAX_HEIGHT) {
                x = LEFT;
                y += 14;
            }
            switch (e.swatch()) {
                case SOLID -> g.rect(x, y - 8, 10, 10, e.color(), 1);
                case FAINT -> g.rect(x, y - 8, 10, 10, e.color(), 0.35);
                case DASHED -> g.line(x, y - 3, x + 10, y - 3, e.color(), 1.5, true);
            }
            text(g, l, x + 14, y + 1, s, 10, DARK, -1, false, "legend");
            x += w;
        }
        l.height = (int) Math.max(HEIGHT, y + 14);
    }

    /** {@code s} cut with an ellipsis to fit {@code width} pixels at {@code size}. */
    static String fit(String s, int size, double width) {
        if (TextMetrics.width(s, size) <= width) return s;
        String t = s;
        while (t.length() > 1 && TextMetrics.width(t + "…", size) > width) t = t.substring(0, t.length() - 1);
        return t + "…";
    }

    /**
     * {lo, hi, log?} of one axis over every plotted value (series, bands, spans, rules), padded so that no mark sits on
     * the frame; log only where asked and the positive data span at least a decade. Null with no data.
     */
    private static double[] range(Chart c, boolean xAxis) {
        if (xAxis && c.categories != null) return new double[] {-0.6, c.categories.size() - 0.4, 0};
        List<Double> values = new ArrayList<>();
        for (Chart.Series s : c.series) for (double v : xAxis ? s.x() : s.y()) values.add(v);
        for (Chart.Band b : c.bands) {
            if (xAxis) for (double v : b.x()) values.add(v);
            else {
                for (double v : b.low()) values.add(v);
                for (double v : b.high()) values.add(v);
            }
        }
        boolean any = values.stream().anyMatch(Double::isFinite);
        if (!any) return null;
        if (xAxis)
            for (Chart.Span s : c.spans) {
                values.add(s.from());
                values.add(s.to());
            }
        for (Chart.Rule r : c.rules) if (r.vertical() == xAxis) values.add(r.value());
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY, posLo = Double.POSITIVE_INFINITY;
        for (double v : values) {
            if (!Double.isFinite(v)) continue;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
            if (v > 0) posLo = Math.min(posLo, v);
        }
        boolean asked = xAxis ? c.logX : c.logY;
        boolean log = asked && lo > 0 && hi >= 10 * lo;
        if (log) return new double[] {lo / 1.3, hi * 1.3, 1};
        boolean bars = c.categories != null;
        if (!xAxis) {
            if (c.fractionY) {
                lo = Math.min(lo, 0);
                hi = Math.max(hi, 1);
                return new double[] {lo, hi, 0};
            }
            lo = Math.min(lo, 0);
            if (hi == lo) hi = lo == 0 ? 1 : lo + Math.abs(lo) * 0.1;
            hi = hi + (hi - lo) * (bars ? 0.15 : 0.08);
            return new double[] {lo, hi, 0};
        }
        if (hi == lo) {
            double d = lo == 0 ? 1 : Math.abs(lo) * 0.1;
            return new double[] {lo - d, hi + d, 0};
        }
        boolean points = c.series.stream().anyMatch(s -> s.style() == Chart.Style.POINTS);
        double pad = points ? (hi - lo) * 0.03 : 0;
        // Room right of the last vertical rule (a p99 at the maximum) for its label.
        boolean rules = c.rules.stream().anyMatch(Chart.Rule::vertical);
        return new double[] {lo - pad, hi + Math.max(pad, rules ? (hi - lo) * 0.1 : 0), 0};
    }

    static String percent(double v) {
        return String.format(Locale.ROOT, "%.0f %%", v * 100);
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

        /** A band's edge kept on the axis: a log axis cannot draw zero. */
        double clamp(double v) {
            return log && !(v > lo) ? lo : v;
        }

        double px(double v) {
            double t = log ? (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : (v - lo) / (hi - lo);
            return p0 + t * (p1 - p0);
        }

        List<Double> ticks(boolean fraction) {
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
            if (fraction && hi - lo <= 1.0001) step = 0.2;
            for (double t = Math.ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step)
                out.add(Math.abs(t) < 1e-12 ? 0 : t);
            return out;
        }
    }
}
