package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Puts numbers into JSON the same way everywhere (rounded to a fixed number of decimals, NaN as null) and reads them
 * back the same way (null or absent as NaN).
 */
final class JsonNumbers {
    private JsonNumbers() {}

    static void put(ObjectNode o, String key, double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(key);
        } else {
            var d = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).stripTrailingZeros();
            // Plain notation: 80, not 8E+1.
            o.put(key, d.scale() < 0 ? d.setScale(0) : d);
        }
    }

    /** Full precision (round-trips exactly), NaN as null: for values a resumed run reads back. */
    static void exact(ObjectNode o, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) o.putNull(key);
        else o.put(key, v);
    }

    /** A number written by {@link #put} or {@link #exact}: NaN when null, absent or not a number. */
    static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }
}
