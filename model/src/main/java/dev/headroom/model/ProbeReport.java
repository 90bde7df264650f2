package dev.headroom.model;

import java.util.List;

/**
 * One probe's result as {@code summary.json} publishes it: what ran, what was measured, the client's health, what
 * the server said about itself (null when its metrics were not scraped), what the measurement itself warns of
 * ({@link MeasurementWarnings}), for a load of sessions its metrics by turn and by session (else null), and how its
 * users were started (null when a result written before Headroom said so is read), and a distributed run's workers
 * (empty for one process).
 */
public record ProbeReport(
        RunInfo run,
        Summary summary,
        ClientHealth client,
        ServerMetrics server,
        List<String> warnings,
        SessionSummary sessions,
        UserStart userStart,
        List<WorkerRun> workers) {
    public ProbeReport {
        warnings = List.copyOf(warnings);
        workers = workers == null ? List.of() : List.copyOf(workers);
    }

    /** One process. */
    public ProbeReport(
            RunInfo run,
            Summary summary,
            ClientHealth client,
            ServerMetrics server,
            List<String> warnings,
            SessionSummary sessions,
            UserStart userStart) {
        this(run, summary, client, server, warnings, sessions, userStart, List.of());
    }

    /** The same probe, run by these workers. */
    public ProbeReport withWorkers(List<WorkerRun> by) {
        return new ProbeReport(run, summary, client, server, warnings, sessions, userStart, by);
    }

    /** Whether a worker's share fell short, so the load asked for was not all offered: never a pass. */
    public boolean degraded() {
        return workers.stream().anyMatch(WorkerRun::degraded);
    }

    /** How the users were started unknown. */
    public ProbeReport(
            RunInfo run,
            Summary summary,
            ClientHealth client,
            ServerMetrics server,
            List<String> warnings,
            SessionSummary sessions) {
        this(run, summary, client, server, warnings, sessions, null);
    }

    /** The same probe, saying how its users were started. */
    public ProbeReport startedAs(UserStart how) {
        return new ProbeReport(run, summary, client, server, warnings, sessions, how, workers);
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
