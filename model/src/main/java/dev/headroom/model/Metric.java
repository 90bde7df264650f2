package dev.headroom.model;

import java.util.List;

/**
 * The distributions a {@link Summary} keeps of a load point's requests, each under the key results use for it
 * (docs/metrics.md defines every one): latencies in ms, lengths in tokens.
 */
public enum Metric {
    TTFT_MS("ttft_ms"),
    TTFT_FROM_SEND_MS("ttft_from_send_ms"),
    ITL_MS("itl_ms"),
    TPOT_MS("tpot_ms"),
    E2E_MS("e2e_ms"),
    ISL("isl"),
    OSL("osl"),
    SEND_LAG_MS("send_lag_ms");

    /** The metrics of a run's time series (histograms.hlog's intervals). */
    public static final List<Metric> SERIES = List.of(TTFT_MS, ITL_MS, TPOT_MS, E2E_MS);

    private final String key;

    Metric(String key) {
        this.key = key;
    }

    /** The key results use: {@code ttft_ms}. */
    public String key() {
        return key;
    }

    /** Whether it is a time (recorded in µs, reported in ms) rather than a length in tokens. */
    public boolean isTime() {
        return key.endsWith("_ms");
    }

    /** The metric of {@code key}, or null. */
    public static Metric ofKey(String key) {
        for (Metric m : values()) if (m.key.equals(key)) return m;
        return null;
    }
}
