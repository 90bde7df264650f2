package dev.headroom.model;

/**
 * One probe's result as {@code summary.json} publishes it: what ran, what was measured, the client's health, and
 * what the server said about itself (null when its metrics were not scraped).
 */
public record ProbeReport(RunInfo run, Summary summary, ClientHealth client, ServerMetrics server) {
    /** A probe without server metrics. */
    public ProbeReport(RunInfo run, Summary summary, ClientHealth client) {
        this(run, summary, client, null);
    }
}
