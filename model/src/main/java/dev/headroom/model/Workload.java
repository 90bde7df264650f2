package dev.headroom.model;

/**
 * What each request asks for: its prompt length, its requested output length, and whether the server
 * must ignore end-of-sequence so the output length is exactly the one requested.
 *
 * @param outputTokens null to ask for no length: the server decides (its end-of-sequence, its limits)
 */
public record Workload(LengthDistribution inputTokens, LengthDistribution outputTokens, boolean ignoreEos) {
    public Workload {
        if (inputTokens == null) throw new IllegalArgumentException("a workload needs an input length distribution");
    }

    /** Fixed input and output lengths with {@code ignore_eos}. */
    public static Workload fixed(int isl, int osl) {
        return new Workload(new LengthDistribution.Fixed(isl), new LengthDistribution.Fixed(osl), true);
    }
}
