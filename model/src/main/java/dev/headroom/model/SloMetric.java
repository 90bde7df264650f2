package dev.headroom.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What an SLO constrains; the wire name ({@code ttft_from_send}) is how SLOs are written and results name it. */
public enum SloMetric {
    TTFT("ttft", true),
    TTFT_FROM_SEND("ttft_from_send", true),
    ITL("itl", false),
    TPOT("tpot", false),
    E2E("e2e", true),
    /**
     * A completed session's duration (sessions only): from its first turn's origin to the end of its last request,
     * think times included. No request has one; a session is held to it as a whole.
     */
    SESSION("session", false),
    ERROR_RATE("error_rate", false);

    private final String wire;
    private final boolean queued;

    SloMetric(String wire, boolean queued) {
        this.wire = wire;
        this.queued = queued;
    }

    public String wireName() {
        return wire;
    }

    public boolean isRate() {
        return this == ERROR_RATE;
    }

    /** Whether it includes the time a request waits in the server's queue. */
    public boolean queued() {
        return queued;
    }

    /** Whether it judges whole sessions rather than requests ({@link SessionRecorder} and the search's margins). */
    public boolean perSession() {
        return this == SESSION;
    }

    /** The distribution a {@link Summary} keeps of it ({@code ttft_ms}); a rate and a session duration have none. */
    public Metric distributionKey() {
        if (isRate()) throw new IllegalStateException(wire + " is a rate: it has no distribution");
        if (perSession()) throw new IllegalStateException(wire + " is a session's: sessions.duration_s has it");
        return Metric.ofKey(wire + "_ms");
    }

    /**
     * One completed request's value in ms as {@link Metrics} defines it, NaN when it has none (no token, or one token:
     * no tpot). Not for {@code itl}, of which a request has one value per gap ({@link Metrics#itlGapsMicros}).
     */
    public double valueMs(RequestRecord r, boolean openLoop) {
        long origin = Metrics.micros(Metrics.origin(r, openLoop));
        return switch (this) {
            case TTFT -> r.firstTokenNanos() < 0 ? Double.NaN : (Metrics.micros(r.firstTokenNanos()) - origin) / 1e3;
            case TTFT_FROM_SEND ->
                r.firstTokenNanos() < 0
                        ? Double.NaN
                        : (Metrics.micros(r.firstTokenNanos()) - Metrics.micros(r.sentNanos())) / 1e3;
            case E2E -> r.lastTokenNanos() < 0 ? Double.NaN : (Metrics.micros(r.lastTokenNanos()) - origin) / 1e3;
            case TPOT -> Metrics.tpotMicros(r) / 1e3;
            case ITL, SESSION, ERROR_RATE -> throw new IllegalStateException(wire + " has no single value per request");
        };
    }

    /** The latency metrics' names, for messages. */
    public static String latencyNames() {
        return Arrays.stream(values())
                .filter(m -> !m.isRate())
                .map(SloMetric::wireName)
                .collect(Collectors.joining(", "));
    }

    /** The metric of a wire name, or null when there is none. */
    public static SloMetric find(String wire) {
        for (SloMetric m : values()) if (m.wire.equals(wire)) return m;
        return null;
    }
}
