package dev.headroom.reports;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * How a number is written in our CSV files: a whole number without a decimal point ({@code 6}, not {@code 6.0}),
 * anything else to 6 significant digits (a whole number from a million up), in plain notation (never {@code 7.6E10}),
 * and no value as an empty cell. Six digits are more than any measured or planned figure here can claim, and keep
 * {@code 17461.6} from reading {@code 17461.600000000002}.
 */
final class CsvNumbers {
    static final int SIGNIFICANT = 6;

    private CsvNumbers() {}

    /** {@code v} as a CSV cell; "" for NaN or infinity. */
    static String cell(double v) {
        if (!Double.isFinite(v)) return "";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        BigDecimal d = new BigDecimal(v);
        d = Math.abs(v) >= 1e6
                ? d.setScale(0, RoundingMode.HALF_EVEN)
                : d.round(new MathContext(SIGNIFICANT, RoundingMode.HALF_EVEN));
        String s = d.stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }

    /** A row value as a CSV cell: floating-point numbers as {@link #cell(double)}, others as they are. */
    static Object cell(Object v) {
        return switch (v) {
            case Double d -> cell(d.doubleValue());
            case Float f -> cell(f.doubleValue());
            case null -> null;
            default -> v;
        };
    }
}
