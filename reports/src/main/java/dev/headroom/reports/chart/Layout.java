package dev.headroom.reports.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a chart's pieces went: every text's box, the data's marks and line segments, and the annotation labels that
 * found no free place (named in the legend instead, or — probe numbers — left to the table beside the chart). Labels
 * are placed against it, so none is drawn over another or over the data; tests read it back.
 */
final class Layout {
    /** A drawn text: its box, its words and its role (title, tick, axis, legend, label, value). */
    record Placed(Box box, String text, String role) {}

    final Box plot;
    final List<Placed> texts = new ArrayList<>();
    final List<Box> marks = new ArrayList<>();
    final List<double[]> segments = new ArrayList<>();
    final List<String> dropped = new ArrayList<>();
    /** The shaded intervals as drawn (at least {@link Plotter#MIN_SPAN_PX} wide). */
    final List<Box> spans = new ArrayList<>();

    int height;
    boolean logX;
    boolean logY;
    double[] xRange;
    double[] yRange;

    Layout(Box plot) {
        this.plot = plot;
    }

    void segment(double x1, double y1, double x2, double y2) {
        segments.add(new double[] {x1, y1, x2, y2});
    }

    /** Whether {@code b} touches no text and (with {@code data}) no mark or line of the data. */
    boolean clear(Box b, boolean data) {
        Box pad = b.grow(1);
        for (Placed t : texts) if (t.box().overlaps(pad)) return false;
        if (!data) return true;
        for (Box m : marks) if (m.overlaps(pad)) return false;
        for (double[] s : segments) {
            if (Math.max(s[0], s[2]) < pad.x() || Math.min(s[0], s[2]) > pad.right()) continue;
            if (Math.max(s[1], s[3]) < pad.y() || Math.min(s[1], s[3]) > pad.bottom()) continue;
            if (pad.crosses(s[0], s[1], s[2], s[3])) return false;
        }
        return true;
    }
}
