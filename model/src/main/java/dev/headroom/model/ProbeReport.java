package dev.headroom.model;

import java.util.List;

/**
 * One probe's result as {@code summary.json} publishes it: what ran, what was measured, the client's health, what
 * the server said about itself (null when its metrics were not scraped), what the measurement itself warns of
 * ({@link MeasurementWarnings}), and for a load of sessions, its metrics by turn and by session (else null).
 */
public record ProbeReport(
        RunInfo run,
        Summary summary,
        ClientHealth client,
        ServerMetrics server,
        List<String> warnings,
        SessionSummary sessions) {
    public ProbeReport {
        warnings = List.copyOf(warnings);
    }

    /** Independent requests. */
    public ProbeReport(RunInfo run, Summary summary, ClientHealth client, ServerMetrics server, List<String> warnings) {
        this(run, summary, client, server, warnings, null);
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
