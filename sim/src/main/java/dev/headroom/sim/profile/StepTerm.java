package dev.headroom.sim.profile;

/**
 * The step model's terms a hardware profile carries, each with its YAML key, its valid range, and the default a
 * profile that leaves it out gets. What each one means, and where its value comes from: docs/simulator.md.
 */
public enum StepTerm {
    /** Fraction of the spec-sheet memory bandwidth a step's reads achieve. */
    MEMORY_EFFICIENCY("memory_efficiency", 0.05, 1, 0.8),
    /** Fraction of the spec-sheet FLOP/s a large matrix multiply achieves. */
    COMPUTE_EFFICIENCY("compute_efficiency", 0.05, 1, 0.6),
    /** Fixed cost of one engine step: scheduling, input preparation, sampling launch (ms). */
    STEP_OVERHEAD_MS("step_overhead_ms", 0, 50, 1.0),
    /** Latency of one all-reduce call at TP 2; it grows with log2(TP) (µs). */
    ALLREDUCE_LATENCY_US("allreduce_latency_us", 0, 500, 10),
    /** Tokens per step (at 4096 columns per GPU) at which a matrix multiply reaches half its efficiency. */
    GEMM_HALF_TOKENS("gemm_half_tokens", 0, 4096, 64),
    /** Cost per sequence in a step: its inputs, sampling, output processing (µs). */
    SEQ_OVERHEAD_US("seq_overhead_us", 0, 500, 10),
    /** Cost per layer per step that no batch amortises: small kernels, norms, launches (µs). */
    LAYER_OVERHEAD_US("layer_overhead_us", 0, 500, 10),
    /** Cost per request outside the steps: HTTP, tokenisation, detokenisation, queueing into the engine (ms). */
    REQUEST_OVERHEAD_MS("request_overhead_ms", 0, 500, 15),
    /**
     * Cost per mixture-of-experts layer per step beyond its matrix multiplies: routing, top-k, sorting tokens by
     * expert and back, the grouped GEMMs' launches (µs). Dense models never pay it.
     */
    MOE_LAYER_OVERHEAD_US("moe_layer_overhead_us", 0, 2000, 350),
    /** Fraction of the dense matrix multiplies' efficiency (memory and compute) the experts' grouped GEMMs reach. */
    MOE_EFFICIENCY("moe_efficiency", 0.05, 1, 0.3),
    /**
     * Time the server's one front-end process spends on each request, one request at a time: parsing, the chat
     * template, tokenisation, handing it to the engine (ms). Unlike {@link #REQUEST_OVERHEAD_MS} it queues.
     */
    FRONTEND_REQUEST_MS("frontend_request_ms", 0, 500, 0),
    /**
     * Time the same process spends on each streamed token, one at a time: detokenising, the chunk's JSON, the write
     * (µs). Tokens wait for it when it is busy; the engine does not.
     */
    FRONTEND_TOKEN_US("frontend_token_us", 0, 5000, 0);

    /** The terms only a mixture of experts uses. */
    public static final java.util.Set<StepTerm> MOE = java.util.EnumSet.of(MOE_LAYER_OVERHEAD_US, MOE_EFFICIENCY);

    /** The front end's terms: the serving process in front of the engine, which an in-process benchmark skips. */
    public static final java.util.Set<StepTerm> FRONT_END =
            java.util.EnumSet.of(FRONTEND_REQUEST_MS, FRONTEND_TOKEN_US);

    private final String key;
    private final double min;
    private final double max;
    private final double defaultValue;

    StepTerm(String key, double min, double max, double defaultValue) {
        this.key = key;
        this.min = min;
        this.max = max;
        this.defaultValue = defaultValue;
    }

    public String key() {
        return key;
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    /** The value a profile that leaves this term out gets. */
    public double defaultValue() {
        return defaultValue;
    }

    /** The term a profile key names, or null. */
    public static StepTerm find(String key) {
        for (StepTerm t : values()) if (t.key.equals(key)) return t;
        return null;
    }

    void check(String profile, double v) {
        if (!(v >= min && v <= max)) {
            throw new dev.headroom.model.BadInputException(
                    "profile '" + profile + "': " + key + " must be in [" + fmt(min) + ", " + fmt(max) + "], got " + v);
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
