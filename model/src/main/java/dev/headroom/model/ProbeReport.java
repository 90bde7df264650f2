package dev.headroom.model;

import java.util.List;

/**
 * One probe's result as {@code summary.json} publishes it: what ran, what was measured, the client's health, what
 * the server said about itself (null when its metrics were not scraped), and what the measurement itself warns of
 * ({@link MeasurementWarnings}).
 */
public record ProbeReport(
        RunInfo run, Summary summary, ClientHealth client, ServerMetrics server, List<String> warnings) {
    public ProbeReport {
        warnings = List.copyOf(warnings);
    }

    /** A probe with no measurement warnings. */
    public ProbeReport(RunInfo run, Summary summary, ClientHealth client, ServerMetrics server) {
        this(run, summary, client, server, List.of());
    }

    /** A probe without server metrics. */
    public ProbeReport(RunInfo run, Summary summary, ClientHealth client) {
        this(run, summary, client, null);
    }
}
