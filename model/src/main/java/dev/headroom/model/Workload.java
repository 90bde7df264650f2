package dev.headroom.model;

/**
 * What each request asks for: its prompt length, its requested output length, and whether the server
 * must ignore end-of-sequence so the output length is exactly the one requested.
 */
public record Workload(LengthDistribution inputTokens, LengthDistribution outputTokens, boolean ignoreEos) {
    public Workload {
        if (inputTokens == null || outputTokens == null) {
            throw new IllegalArgumentException("a workload needs both an input and an output length distribution");
        }
    }

    /** Fixed input and output lengths with {@code ignore_eos}. */
    public static Workload fixed(int isl, int osl) {
        return new Workload(new LengthDistribution.Fixed(isl), new LengthDistribution.Fixed(osl), true);
    }
}
