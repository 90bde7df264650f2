package dev.headroom.reports.chart;

/**
 * The extent of a line of text, estimated without a font so that the SVG (drawn by whatever browser opens it) and
 * the PNG lay out alike: per-character advances in ems, on the wide side of the common sans-serif faces (DejaVu
 * Sans, Liberation Sans, Helvetica), so a label placed clear of others stays clear in any of them.
 */
final class TextMetrics {
    private TextMetrics() {}

    static double width(String s, int size) {
        double em = 0;
        for (int i = 0; i < s.length(); i++) em += advance(s.charAt(i));
        return em * size;
    }

    /** Ascent above the baseline and descent below it, in pixels. */
    static double ascent(int size) {
        return 0.80 * size;
    }

    static double descent(int size) {
        return 0.25 * size;
    }

    /** The box of text drawn at (x, y) with {@link Canvas#text}'s anchor, horizontal or rotated −90°. */
    static Box box(double x, double y, String s, int size, int anchor, boolean vertical) {
        double w = width(s, size);
        double dx = anchor < 0 ? 0 : anchor == 0 ? -w / 2 : -w;
        if (vertical) return new Box(x - ascent(size), y - dx - w, ascent(size) + descent(size), w);
        return new Box(x + dx, y - ascent(size), w, ascent(size) + descent(size));
    }

    private static double advance(char c) {
        if ("iljI.,:;'|!·".indexOf(c) >= 0) return 0.32;
        if ("frt()[]{}-/ ".indexOf(c) >= 0) return 0.42;
        if ("mwMW%@".indexOf(c) >= 0) return 1.0;
        if (c == '—' || c == '–') return c == '—' ? 1.0 : 0.55;
        if (Character.isUpperCase(c)) return 0.74;
        if (Character.isDigit(c)) return 0.64;
        return 0.62;
    }
}
