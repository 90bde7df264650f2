package dev.headroom.model.fit;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Metric;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A number a load point's result states, as {@link Summary} defines it (docs/metrics.md), and the kind of number it
 * is for scoring a model: first-token latency, per-token latency, throughput, or end-to-end latency.
 */
public enum ObservedMetric {
    TTFT("ttft_ms", Kind.TTFT),
    TPOT("tpot_ms", Kind.TPOT),
    ITL("itl_ms", Kind.TPOT),
    E2E("e2e_ms", Kind.E2E),
    OUTPUT_TOKENS_PER_S("output_tokens_per_s", Kind.THROUGHPUT),
    TOTAL_TOKENS_PER_S("total_tokens_per_s", Kind.THROUGHPUT),
    REQUESTS_PER_S("requests_per_s", Kind.THROUGHPUT);

    /** What a metric measures, for error figures: TPOT and ITL are one kind, so are the three throughputs. */
    public enum Kind {
        TTFT("ttft"),
        TPOT("tpot/itl"),
        THROUGHPUT("throughput"),
        E2E("e2e");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final String key;
    private final Kind kind;

    ObservedMetric(String key, Kind kind) {
        this.key = key;
        this.kind = kind;
    }

    /** The name summary.json gives it ({@code ttft_ms}, {@code output_tokens_per_s}). */
    public String key() {
        return key;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isRate() {
        return kind == Kind.THROUGHPUT;
    }

    /** Its value in {@code s}: {@code stat} of a latency's distribution, or the rate (whose stat is ignored). */
    public double of(Summary s, SloStat stat) {
        return switch (this) {
            case OUTPUT_TOKENS_PER_S -> s.outputTokensPerS();
            case TOTAL_TOKENS_PER_S -> s.totalTokensPerS();
            case REQUESTS_PER_S -> s.requestsPerS();
            default -> {
                var d = s.distribution(Metric.ofKey(key));
                yield d == null || d.count() == 0 ? Double.NaN : stat.of(d);
            }
        };
    }

    public static ObservedMetric parse(String key) {
        for (ObservedMetric m : values()) if (m.key.equals(key.trim().toLowerCase(Locale.ROOT))) return m;
        throw new BadInputException("unknown metric '" + key + "': valid metrics are "
                + Arrays.stream(values()).map(ObservedMetric::key).collect(Collectors.joining(", ")));
    }
}
