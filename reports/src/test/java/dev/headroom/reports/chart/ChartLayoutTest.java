package dev.headroom.reports.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The charts a hostile reader found illegible, drawn again: labels inside the plot and never over each other or the
 * data, axes that hold every value, log only where the data span a decade, fractions on 0–100 %, intervals that stay
 * visible, bars in their option's colour labelled as the table prints them.
 */
class ChartLayoutTest {

    /** Every text inside the chart, no two overlapping, annotations inside the plot and off the data. */
    static void assertLegible(Layout l, String what) {
        Box chart = new Box(0, 0, Plotter.WIDTH, l.height);
        for (int i = 0; i < l.texts.size(); i++) {
            Layout.Placed a = l.texts.get(i);
            assertTrue(a.box().inside(chart), what + ": '" + a.text() + "' leaves the chart at " + a.box());
            for (int j = i + 1; j < l.texts.size(); j++) {
                Layout.Placed b = l.texts.get(j);
                assertFalse(
                        a.box().overlaps(b.box()),
                        what + ": '" + a.text() + "' " + a.box() + " overlaps '" + b.text() + "' " + b.box());
            }
            if (!a.role().equals("label") && !a.role().equals("value")) continue;
            assertTrue(a.box().inside(l.plot), what + ": label '" + a.text() + "' outside the plot at " + a.box());
            for (Box m : l.marks) assertFalse(m.overlaps(a.box()), what + ": '" + a.text() + "' over a mark " + m);
            for (double[] s : l.segments) {
                assertFalse(
                        a.box().crosses(s[0], s[1], s[2], s[3]),
                        what + ": '" + a.text() + "' " + a.box() + " over a line " + java.util.Arrays.toString(s));
            }
        }
    }

    private static Layout draw(Chart c) {
        return Plotter.draw(c, new Blank());
    }

    private static double[] seq(int n, double from, double step) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) x[i] = from + i * step;
        return x;
    }

    private static long labels(Layout l, String role) {
        return l.texts.stream().filter(t -> t.role().equals(role)).count();
    }

    @Test
    void percentileLabelsCrowdedAtTheRightEdgeStayInsideAndOffTheCurve() {
        int n = 400;
        double[] x = new double[n], y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 100 + 900 * Math.pow((i + 1.0) / n, 6); // a long right tail: p95 and p99 close together
            y[i] = (i + 1.0) / n;
        }
        Chart c = new Chart("TTFT — cumulative distribution", "ttft (ms)", "fraction of requests")
                .step("ttft", x, y)
                .vline("p50 " + 115, 115)
                .vline("p95 " + 740, 740)
                .vline("p99 " + 945, 945);
        Layout l = draw(c);
        assertLegible(l, "cdf");
        assertEquals(3, labels(l, "label"), "every percentile named on the plot");
    }

    @Test
    void warmUpLabelIsNotDrawnOverTheLineThroughTheTopOfItsSpan() {
        double[] x = seq(60, 0.5, 1), y = new double[60];
        for (int i = 0; i < 60; i++) y[i] = i < 5 ? 200 * i : 1000; // the line runs along the top inside the warm-up
        Layout l = draw(new Chart("Output tokens per second", "time since start (s)", "output tokens/s")
                .line("tokens/s", x, y)
                .span("warm-up", 0, 5));
        assertLegible(l, "tokens/s");
        assertTrue(l.texts.stream().anyMatch(t -> t.text().equals("warm-up")), "the warm-up is named");
    }

    @Test
    void aLogAxisHoldsEveryValueClearOfTheFrame() {
        double[] t = seq(30, 0.5, 1);
        double[] itl = new double[30], ttft = new double[30];
        for (int i = 0; i < 30; i++) {
            itl[i] = 4 + (i % 3);
            ttft[i] = 900 + 40 * i;
        }
        Layout l = draw(new Chart("Latency over the run", "time since start (s)", "ms")
                .logYIfWide()
                .line("itl p50", t, itl)
                .line("ttft p99", t, ttft));
        assertTrue(l.logY, "4 ms to 2 s spans decades");
        assertTrue(l.yRange[0] < 4 && l.yRange[1] > 2060, java.util.Arrays.toString(l.yRange));
        for (double[] s : l.segments) {
            assertTrue(s[1] < l.plot.bottom() - 2 && s[1] > l.plot.y() + 2, "a line on the frame " + s[1]);
        }
        assertLegible(l, "latency");
    }

    @Test
    void logAxesOnlyWhereTheDataSpanADecade() {
        double[] m = seq(12, 1, 1);
        Layout far = draw(new Chart("Replicas", "month", "replicas")
                .logYIfWide()
                .line("h100", m, fill(12, 2))
                .line("l40s", m, fill(12, 60)));
        assertTrue(far.logY, "2 beside 60 replicas: log, so the H100 line is not squashed on the axis");
        Layout near = draw(new Chart("Replicas", "month", "replicas")
                .logYIfWide()
                .line("h100", m, fill(12, 50))
                .line("l40s", m, fill(12, 80)));
        assertFalse(near.logY, "50 beside 80: linear");
        Layout zero = draw(new Chart("Replicas", "month", "replicas")
                .logYIfWide()
                .line("a", m, fill(12, 0))
                .line("b", m, fill(12, 80)));
        assertFalse(zero.logY, "a zero cannot go on a log axis");
    }

    @Test
    void aNearlyEmptyKvCacheIsDrawnOnAWholeZeroToHundredPercentAxis() {
        double[] t = seq(20, 1, 1);
        Layout l = draw(new Chart("Server: KV-cache usage", "time since start (s)", "KV cache used")
                .fractionY()
                .line("KV cache", t, fill(20, 0.015)));
        assertEquals(0, l.yRange[0]);
        assertEquals(1, l.yRange[1]);
        assertTrue(l.texts.stream().anyMatch(x -> x.text().equals("100 %")), "ticks in per cent");
        Layout over = draw(new Chart("KV", "t", "used").fractionY().line("KV", t, fill(20, 1.2)));
        assertTrue(over.yRange[1] >= 1.2, "a value past 100 % widens the axis rather than leaving it");
    }

    @Test
    void probeNumbersNeverOverprintTheIntervalOrTheBoundary() {
        double[] load = {1, 2, 4, 8, 16, 24, 28, 30, 31, 32, 33, 34, 36, 40, 64, 128};
        double[] tp = new double[load.length];
        String[] names = new String[load.length];
        for (int i = 0; i < load.length; i++) {
            tp[i] = 300 * Math.min(load[i], 32) / (1 + load[i] / 200);
            names[i] = String.valueOf(i + 1);
        }
        Layout l = draw(new Chart("Output tokens/s against load", "concurrency", "output tokens/s")
                .logXIfWide()
                .points("probes", load, tp, names)
                .span("interval", 31.2, 31.8)
                .vline("boundary 31.5", 31.5));
        assertLegible(l, "search");
        assertTrue(l.logX);
        assertTrue(l.spans.getFirst().w() >= Plotter.MIN_SPAN_PX, "a narrow interval on a log axis stays visible");
        assertTrue(l.texts.stream().anyMatch(t -> t.text().equals("interval")), "the interval is named somewhere");
        assertTrue(l.texts.stream().anyMatch(t -> t.text().equals("boundary 31.5")), "the boundary is named");
    }

    @Test
    void barsTakeTheirOptionsColoursAndTheTablesNumbers() {
        Recording g = new Recording();
        Layout l = Plotter.draw(
                new Chart("$ per million tokens, as planned", "option", "$/Mtok")
                        .bars(
                                "as planned",
                                List.of("h100", "l40s", "a100"),
                                new double[] {0.0405, 0.052, 0.04},
                                List.of("0.0405", "0.0520", "0.0400")),
                g);
        assertLegible(l, "bars");
        Set<String> values = new HashSet<>();
        l.texts.stream().filter(t -> t.role().equals("value")).forEach(t -> values.add(t.text()));
        assertEquals(Set.of("0.0405", "0.0520", "0.0400"), values);
        Set<Integer> colours = new HashSet<>(g.barColours);
        assertEquals(3, colours.size(), "one colour per option");
        assertEquals(
                Canvas.color(0), g.barColours.get(0), "the first option's colour is its line's in the other charts");
    }

    /** Seeded random charts: whatever the data, the layout rules hold. The seed is in every failure message. */
    @Test
    void randomChartsAreAlwaysLegible() {
        long seed = Long.getLong("chart.seed", 20261205L);
        Random r = new Random(seed);
        for (int k = 0; k < 300; k++) {
            Chart c = new Chart("random chart " + k, "x (unit)", "y (unit)");
            if (r.nextBoolean()) c.logXIfWide();
            if (r.nextBoolean()) c.logYIfWide();
            int series = 1 + r.nextInt(4);
            for (int s = 0; s < series; s++) {
                int n = 1 + r.nextInt(40);
                double scale = Math.pow(10, r.nextInt(6) - 2);
                double[] x = new double[n], y = new double[n];
                String[] labels = new String[n];
                for (int i = 0; i < n; i++) {
                    x[i] = (i + 1) * scale * (1 + r.nextDouble());
                    y[i] = scale * Math.exp(3 * r.nextGaussian());
                    labels[i] = String.valueOf(i + 1);
                }
                java.util.Arrays.sort(x);
                switch (r.nextInt(3)) {
                    case 0 -> c.line("series " + s + " with a long name", x, y);
                    case 1 -> c.step("s" + s, x, y);
                    default -> c.points("probes " + s, x, y, labels);
                }
                if (r.nextInt(3) == 0) c.vline("p" + (90 + s) + " " + Plotter.fmt(x[n / 2]), x[n / 2]);
                if (r.nextInt(3) == 0) c.hline("SLO " + Plotter.fmt(y[0]) + " ms", y[0]);
                if (r.nextInt(4) == 0) c.span("interval", x[0], x[n - 1] * (0.5 + r.nextDouble()));
            }
            Layout l = draw(c);
            try {
                assertLegible(l, "chart " + k);
            } catch (AssertionError e) {
                fail("seed " + seed + " (-Dchart.seed=" + seed + "): " + e.getMessage());
            }
        }
    }

    @Test
    void theSvgCarriesEveryTextsRoleAndBox() {
        Chart c = new Chart("A title", "x", "y")
                .line("a", seq(5, 1, 1), seq(5, 1, 1))
                .vline("p50 3", 3);
        String svg = Svg.render(c);
        Layout l = draw(c);
        Matcher m = Pattern.compile("<text class=\"(\\w+)\" data-box=\"([-0-9. ]+)\"")
                .matcher(svg);
        List<String> boxes = new ArrayList<>();
        while (m.find()) boxes.add(m.group(1) + " " + m.group(2));
        List<String> expected = new ArrayList<>();
        for (Layout.Placed p : l.texts) expected.add(p.role() + " " + p.box().attribute());
        assertEquals(expected, boxes);
        assertTrue(svg.contains("height=\"" + l.height + "\""));
    }

    private static double[] fill(int n, double v) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, v);
        return a;
    }

    /** A canvas that draws nothing: the layout is the result. */
    private static class Blank implements Canvas {
        @Override
        public void line(double x1, double y1, double x2, double y2, int rgb, double width, boolean dashed) {}

        @Override
        public void polyline(double[] xs, double[] ys, int rgb, double width) {}

        @Override
        public void polygon(double[] xs, double[] ys, int rgb, double opacity) {}

        @Override
        public void rect(double x, double y, double w, double h, int rgb, double opacity) {}

        @Override
        public void circle(double x, double y, double r, int rgb) {}

        @Override
        public void text(double x, double y, String s, int size, int rgb, int anchor, boolean vertical, String role) {}
    }

    /** Keeps the colours of the opaque rectangles narrower than the chart: the bars. */
    private static final class Recording extends Blank {
        final List<Integer> barColours = new ArrayList<>();

        @Override
        public void rect(double x, double y, double w, double h, int rgb, double opacity) {
            if (opacity > 0.5 && w < Plotter.WIDTH / 2.0) barColours.add(rgb);
        }
    }
}
