package dev.headroom.reports.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * A chart as data: axes, series and annotations. Rendered to inline SVG for the HTML report ({@link Svg}) and to
 * PNG for slides ({@link Png}) from the same description, so the two never disagree.
 */
public final class Chart {
    /** How a series is drawn. */
    public enum Style {
        LINE,
        POINTS,
        STEP,
        BARS
    }

    /** A named series of (x, y) points; labels (optional) are drawn next to points (e.g. probe numbers). */
    public record Series(String name, double[] x, double[] y, Style style, int color, String[] labels) {}

    /** A band between two curves over the same x (e.g. a posterior mean ± 2 sd, a replica range). */
    public record Band(String name, double[] x, double[] low, double[] high, int color) {}

    /** A shaded x-interval (e.g. warm-up, a boundary's interval). */
    public record Span(String label, double from, double to, int color) {}

    /** A reference line: horizontal at y (e.g. an SLO threshold) or vertical at x (e.g. a percentile). */
    public record Rule(String label, double value, boolean vertical, int color) {}

    final String title;
    final String xLabel;
    final String yLabel;
    boolean logX;
    boolean logY;
    final List<Series> series = new ArrayList<>();
    final List<Band> bands = new ArrayList<>();
    final List<Span> spans = new ArrayList<>();
    final List<Rule> rules = new ArrayList<>();
    /** Category names for a bar chart's x positions 0, 1, 2, … (null otherwise). */
    List<String> categories;

    public Chart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    public Chart logX() {
        logX = true;
        return this;
    }

    public Chart logY() {
        logY = true;
        return this;
    }

    public Chart line(String name, double[] x, double[] y) {
        return add(new Series(name, x, y, Style.LINE, series.size(), null));
    }

    public Chart step(String name, double[] x, double[] y) {
        return add(new Series(name, x, y, Style.STEP, series.size(), null));
    }

    public Chart points(String name, double[] x, double[] y, String[] labels) {
        return add(new Series(name, x, y, Style.POINTS, series.size(), labels));
    }

    /** Bars at x = 0, 1, … named by {@code categories}. */
    public Chart bars(String name, List<String> categories, double[] y) {
        this.categories = List.copyOf(categories);
        double[] x = new double[y.length];
        for (int i = 0; i < x.length; i++) x[i] = i;
        return add(new Series(name, x, y, Style.BARS, series.size(), null));
    }

    public Chart band(String name, double[] x, double[] low, double[] high) {
        // The colour of the series added next: a band is drawn under the line it belongs to.
        bands.add(new Band(name, x, low, high, series.size()));
        return this;
    }

    public Chart span(String label, double from, double to) {
        spans.add(new Span(label, from, to, spans.size()));
        return this;
    }

    public Chart hline(String label, double y) {
        rules.add(new Rule(label, y, false, rules.size()));
        return this;
    }

    public Chart vline(String label, double x) {
        rules.add(new Rule(label, x, true, rules.size()));
        return this;
    }

    private Chart add(Series s) {
        series.add(s);
        return this;
    }

    public String title() {
        return title;
    }

    /** Points drawn (series points plus band points): a chart with none is empty. */
    public int pointCount() {
        int n = 0;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) if (Double.isFinite(s.x()[i]) && Double.isFinite(s.y()[i])) n++;
        }
        for (Band b : bands) n += b.x().length;
        return n;
    }
}
