package dev.headroom.reports;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Puts numbers into JSON the same way everywhere: rounded to a fixed number of decimals, NaN as null. */
final class JsonNumbers {
    private JsonNumbers() {}

    static void put(ObjectNode o, String key, double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(key);
        } else {
            o.put(key, new java.math.BigDecimal(v).setScale(decimals, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros());
        }
    }
}
