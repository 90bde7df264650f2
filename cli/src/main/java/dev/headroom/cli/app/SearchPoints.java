package dev.headroom.cli.app;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Measurer;
import dev.headroom.model.Metrics;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchReport;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.optimizer.SearchRun;
import dev.headroom.probe.MetricsScraper;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.RunFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A search's load points, each measured by the {@link Measurer} into its own run directory holding what a probe's
 * does: config.yaml, requests.jsonl, requests.csv, histograms.hlog, server_metrics.jsonl when scraped, and
 * summary.json last (its presence marks the point finished for a resumed search).
 */
public final class SearchPoints implements SearchRun.LoadPoint {
    private final Measurer measurer;
    private final RunInfo info;
    private final Path dir;
    private final List<Slo> slos;
    private String metricsUrl;
    private Duration metricsInterval;

    public SearchPoints(Measurer measurer, RunInfo info, Path dir, List<Slo> slos) {
        this.measurer = measurer;
        this.info = info;
        this.dir = dir;
        this.slos = slos;
    }

    /** Scrape the server's Prometheus metrics at {@code url} (null: do not) during every point measured. */
    public SearchPoints withMetrics(String url, Duration interval) {
        this.metricsUrl = url;
        this.metricsInterval = interval;
        return this;
    }

    /** Whether {@code probe}'s directory is complete, so that a resumed search may reuse it. */
    public boolean finished(SearchReport.Probe probe) {
        return Files.isRegularFile(dir.resolve(probe.dir()).resolve("summary.json"));
    }

    @Override
    public Measurement run(String name, MeasurementRequest request) {
        Path probeDir = dir.resolve(name);
        RunFiles.createDirectories(probeDir);
        Measurement m;
        ServerMetrics server = null;
        try (MetricsScraper scraper = metricsUrl == null
                ? null
                : new MetricsScraper(metricsUrl, metricsInterval, probeDir.resolve("server_metrics.jsonl"))) {
            m = measurer.measure(request);
            if (scraper != null) server = scraper.finish();
        }
        write(probeDir, m, request.load(), server);
        return m;
    }

    private void write(Path probeDir, Measurement m, LoadModel lm, ServerMetrics server) {
        Measurement.Notes notes = m.notes();
        writeConfig(probeDir, m, notes);
        try (RequestsJsonl log = new RequestsJsonl(probeDir.resolve("requests.jsonl"))) {
            m.records().forEach(log::append);
        }
        Summary summary = Metrics.summarize(m.records(), lm instanceof LoadModel.Open, slos);
        String inputLength = notes == null ? info.inputLength() : notes.inputLength();
        RunInfo probeInfo = new RunInfo(
                info.toolVersion(),
                info.startedAt(),
                info.url(),
                info.model(),
                info.api(),
                info.simulator(),
                lm,
                0,
                0,
                info.workload(),
                inputLength,
                m.seed(),
                notes == null ? null : notes.promptSalt(),
                notes == null ? null : notes.connections());
        ClientHealth health = ClientHealth.assess(
                m.simulated() ? 0 : summary.distribution("send_lag_ms").p99(), Double.NaN, Double.NaN, 0);
        ProbeReport report = new ProbeReport(
                probeInfo, summary, health, server, MeasurementWarnings.of(summary, inputLength, false));
        long startMillis = notes != null
                ? notes.startEpochMicros() / 1000
                : Instant.parse(info.startedAt()).toEpochMilli();
        RunFiles.writeResults(probeDir, m.records(), report, startMillis);
    }

    /** The point's config.yaml, as a probe's (no secrets: the target's URL and model). */
    private void writeConfig(Path probeDir, Measurement m, Measurement.Notes notes) {
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("url", info.url());
        target.put("model", info.model());
        target.put("api", info.api());
        RunFiles.writeConfig(
                probeDir,
                "search",
                info.toolVersion(),
                info.startedAt(),
                m.request(),
                notes == null ? null : notes.promptSalt(),
                target,
                info.simulator(),
                info.workload(),
                slos);
    }
}
