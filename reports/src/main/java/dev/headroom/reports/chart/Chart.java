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

    /**
     * A named series of (x, y) points; labels (optional) are drawn next to points (e.g. probe numbers) or, for bars,
     * above each bar (its value as the table beside prints it).
     */
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
    boolean fractionY;
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

    /** A log x axis where the positive data span at least a decade (max ≥ 10 × min), a linear one otherwise. */
    public Chart logXIfWide() {
        logX = true;
        return this;
    }

    /** A log y axis where the positive data span at least a decade (max ≥ 10 × min), a linear one otherwise. */
    public Chart logYIfWide() {
        logY = true;
        return this;
    }

    /** A y axis fixed at 0–100 % for fractions (utilisations, shares); widened only if a value lies outside. */
    public Chart fractionY() {
        fractionY = true;
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

    /**
     * Bars at x = 0, 1, … named by {@code categories}, each in its category's colour (the i-th option's, as its line
     * has in the other charts), labelled with {@code values} — the numbers as the page's table prints them.
     */
    public Chart bars(String name, List<String> categories, double[] y, List<String> values) {
        if (values.size() != y.length || categories.size() != y.length) {
            throw new IllegalArgumentException("bars: " + categories.size() + " categories, " + y.length + " values, "
                    + values.size() + " labels");
        }
        this.categories = List.copyOf(categories);
        double[] x = new double[y.length];
        for (int i = 0; i < x.length; i++) x[i] = i;
        return add(new Series(name, x, y, Style.BARS, 0, values.toArray(String[]::new)));
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
