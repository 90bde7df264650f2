package dev.headroom.reports.chart;

import java.util.Locale;

/** Renders a chart as an inline SVG element (no script, no external font or file). */
public final class Svg implements Canvas {
    /** Common faces first, so text lays out as {@link TextMetrics} estimated it (on their wide side). */
    private static final String FONTS = "Arial, Helvetica, 'Liberation Sans', 'DejaVu Sans', sans-serif";

    private final StringBuilder b = new StringBuilder();

    private Svg() {}

    /**
     * The chart as an {@code <svg class="chart">}: each text carries its role as its class and the box the layout gave
     * it as {@code data-box="x y w h"}, so a test can check that no two overlap.
     */
    public static String render(Chart c) {
        Svg s = new Svg();
        Layout layout = Plotter.draw(c, s);
        return String.format(
                        Locale.ROOT,
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" "
                                + "font-family=\"" + FONTS + "\" viewBox=\"0 0 %d %d\" "
                                + "width=\"%d\" height=\"%d\" data-points=\"%d\" data-log=\"%s\"><title>%s</title>",
                        Plotter.WIDTH,
                        layout.height,
                        Plotter.WIDTH,
                        layout.height,
                        c.pointCount(),
                        (layout.logX ? "x" : "") + (layout.logY ? "y" : ""),
                        esc(c.title()))
                + s.b + "</svg>";
    }

    private static String hex(int rgb) {
        return String.format(Locale.ROOT, "#%06x", rgb & 0xFFFFFF);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, int rgb, double width, boolean dashed) {
        b.append("<line x1=\"")
                .append(n(x1))
                .append("\" y1=\"")
                .append(n(y1))
                .append("\" x2=\"")
                .append(n(x2))
                .append("\" y2=\"")
                .append(n(y2))
                .append("\" stroke=\"")
                .append(hex(rgb))
                .append("\" stroke-width=\"")
                .append(n(width))
                .append(dashed ? "\" stroke-dasharray=\"5 4\"/>" : "\"/>");
    }

    @Override
    public void polyline(double[] xs, double[] ys, int rgb, double width) {
        if (xs.length == 0) return;
        b.append("<polyline class=\"series\" fill=\"none\" stroke=\"")
                .append(hex(rgb))
                .append("\" stroke-width=\"")
                .append(n(width))
                .append("\" points=\"");
        for (int i = 0; i < xs.length; i++)
            b.append(n(xs[i])).append(',').append(n(ys[i])).append(' ');
        b.append("\"/>");
    }

    @Override
    public void polygon(double[] xs, double[] ys, int rgb, double opacity) {
        b.append("<polygon class=\"band\" fill=\"")
                .append(hex(rgb))
                .append("\" fill-opacity=\"")
                .append(n(opacity))
                .append("\" stroke=\"none\" points=\"");
        for (int i = 0; i < xs.length; i++)
            b.append(n(xs[i])).append(',').append(n(ys[i])).append(' ');
        b.append("\"/>");
    }

    @Override
    public void rect(double x, double y, double w, double h, int rgb, double opacity) {
        b.append("<rect x=\"")
                .append(n(x))
                .append("\" y=\"")
                .append(n(y))
                .append("\" width=\"")
                .append(n(w))
                .append("\" height=\"")
                .append(n(h))
                .append("\" fill=\"")
                .append(hex(rgb))
                .append("\" fill-opacity=\"")
                .append(String.format(Locale.ROOT, "%.2f", opacity))
                .append("\"/>");
    }

    @Override
    public void circle(double x, double y, double r, int rgb) {
        b.append("<circle class=\"point\" cx=\"")
                .append(n(x))
                .append("\" cy=\"")
                .append(n(y))
                .append("\" r=\"")
                .append(n(r))
                .append("\" fill=\"")
                .append(hex(rgb))
                .append("\"/>");
    }

    @Override
    public void text(double x, double y, String s, int size, int rgb, int anchor, boolean vertical, String role) {
        String a = anchor < 0 ? "start" : anchor == 0 ? "middle" : "end";
        b.append("<text class=\"")
                .append(role)
                .append("\" data-box=\"")
                .append(TextMetrics.box(x, y, s, size, anchor, vertical).attribute())
                .append("\" x=\"")
                .append(n(x))
                .append("\" y=\"")
                .append(n(y))
                .append("\" font-size=\"")
                .append(size)
                .append("\" fill=\"")
                .append(hex(rgb))
                .append("\" text-anchor=\"")
                .append(a)
                .append('"');
        if (vertical)
            b.append(" transform=\"rotate(-90 ")
                    .append(n(x))
                    .append(' ')
                    .append(n(y))
                    .append(")\"");
        b.append('>').append(esc(s)).append("</text>");
    }
}
