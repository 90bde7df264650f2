package dev.headroom.reports.chart;

/** Drawing primitives in pixels (origin top-left), implemented for SVG and for Java2D. */
interface Canvas {
    /** Colours of the palette, by index (wraps around); colour-blind-safe (Okabe–Ito). */
    int[] PALETTE = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0xF0E442, 0x000000};

    static int color(int index) {
        return PALETTE[Math.floorMod(index, PALETTE.length)];
    }

    void line(double x1, double y1, double x2, double y2, int rgb, double width, boolean dashed);

    void polyline(double[] xs, double[] ys, int rgb, double width);

    void polygon(double[] xs, double[] ys, int rgb, double opacity);

    void rect(double x, double y, double w, double h, int rgb, double opacity);

    void circle(double x, double y, double r, int rgb);

    /**
     * Text with its baseline at y, anchored at x: anchor −1 start, 0 middle, 1 end; rotated −90° about (x, y) when
     * vertical. {@code role} says what it is (title, tick, axis, legend, label, value).
     */
    void text(double x, double y, String s, int size, int rgb, int anchor, boolean vertical, String role);
}
