package dev.headroom.sim.profile;

import dev.headroom.model.BadInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A number format for weights or the KV cache: how many bytes an element takes, and whether the matrix multiplies
 * run on the FP8 tensor cores (W8A8) or in BF16 (everything else, including 4-bit weights dequantised on the fly).
 */
public enum Precision {
    BF16(2, false),
    FP16(2, false),
    FP8(1, true),
    INT8(1, true),
    INT4(0.5, false);

    private final double bytes;
    private final boolean fp8Compute;

    Precision(double bytes, boolean fp8Compute) {
        this.bytes = bytes;
        this.fp8Compute = fp8Compute;
    }

    public double bytes() {
        return bytes;
    }

    /** Whether weights in this format multiply at the FP8 peak rather than the BF16 one. */
    public boolean fp8Compute() {
        return fp8Compute;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format a profile's element size means: 2 bytes BF16, 1 byte FP8, half a byte INT4. */
    public static Precision ofBytes(double bytes) {
        if (bytes >= 2) return BF16;
        if (bytes >= 1) return FP8;
        return INT4;
    }

    /** Parses a weight format; {@code auto} (or null) is {@code fallback}. */
    public static Precision parseWeights(String s, Precision fallback, String option) {
        return parse(s, fallback, option, values());
    }

    /**
     * Parses a KV-cache format as vLLM's {@code --kv-cache-dtype} spells it ({@code auto}, {@code fp8},
     * {@code fp8_e4m3}, {@code fp8_e5m2}, or {@code bf16}/{@code fp16}); {@code auto} is {@code fallback}.
     */
    public static Precision parseKvCache(String s, Precision fallback, String option) {
        String v = s == null ? null : s.trim().toLowerCase(Locale.ROOT);
        if (v != null && (v.equals("fp8_e4m3") || v.equals("fp8_e5m2"))) return FP8;
        return parse(v, fallback, option, new Precision[] {BF16, FP16, FP8});
    }

    private static Precision parse(String s, Precision fallback, String option, Precision[] valid) {
        if (s == null || s.isBlank() || s.trim().equalsIgnoreCase("auto")) return fallback;
        for (Precision p : valid) if (p.wireName().equals(s.trim().toLowerCase(Locale.ROOT))) return p;
        throw new BadInputException("bad " + option + " '" + s + "': valid values are auto, "
                + Arrays.stream(valid).map(Precision::wireName).collect(Collectors.joining(", ")));
    }
}
