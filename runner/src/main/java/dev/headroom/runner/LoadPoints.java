package dev.headroom.runner;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Measurer;
import dev.headroom.model.MetricsRecorder;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchReport;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.SessionRecorder;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.Summary;
import dev.headroom.optimizer.SearchRun;
import dev.headroom.probe.MetricsScraper;
import dev.headroom.reports.RequestsCsv;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.RunFiles;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The one way a load point is measured, for probe, sweep and search alike: each point gets a directory holding
 * config.yaml (written first), requests.jsonl (appended as requests finish), requests.csv, histograms.hlog,
 * server_metrics.jsonl when scraped, and summary.json last (its presence marks the point finished, e.g. for a
 * resumed search).
 */
public final class LoadPoints implements SearchRun.LoadPoint {
    private final String command;
    private final Measurer measurer;
    private RunInfo run;
    private final Map<String, Object> target;
    private final EngineConfig simulator;
    private final boolean reuseAsked;
    private final Path dir;
    private final List<Slo> slos;
    private String metricsUrl;
    private Duration metricsInterval;
    private PrintWriter err;
    private boolean chunkTimes;

    /**
     * @param run        what every point shares: URL, model asked for, API, simulator, workload, the command's salt
     * @param target     config.yaml's target section (never a secret)
     * @param simulator  the simulated server's configuration, or null for a real server
     * @param reuseAsked whether the workload asks for prompt reuse (a shared prefix, a dataset), so cached prompt
     *                   tokens are expected rather than a warning
     * @param dir        the command's run directory (a search's points go into directories under it)
     */
    LoadPoints(
            String command,
            Measurer measurer,
            RunInfo run,
            Map<String, Object> target,
            EngineConfig simulator,
            boolean reuseAsked,
            Path dir,
            List<Slo> slos) {
        this.command = command;
        this.measurer = measurer;
        this.run = run;
        this.target = target;
        this.simulator = simulator;
        this.reuseAsked = reuseAsked;
        this.dir = dir;
        this.slos = List.copyOf(slos);
    }

    /** Scrape the server's Prometheus metrics at {@code url} (null: do not) during every point. */
    LoadPoints withMetrics(String url, Duration interval) {
        this.metricsUrl = url;
        this.metricsInterval = interval;
        return this;
    }

    /** Write every content chunk's arrival time into requests.jsonl (a summary rebuilt from it then has itl). */
    public LoadPoints withChunkTimes(boolean write) {
        this.chunkTimes = write;
        return this;
    }

    /** Every point's load is sessions of {@code spec} (a search over sessions), as its run info says. */
    public LoadPoints withSessions(SessionSpec spec) {
        this.run = run.withSessions(spec);
        return this;
    }

    /** Progress and warnings on {@code err} while each point runs. */
    public LoadPoints withProgress(PrintWriter err) {
        this.err = err;
        return this;
    }

    /** What every point shares, as a search's report records it. */
    public RunInfo runInfo() {
        return run;
    }

    /** Measures {@code point} into {@code pointDir} (created if needed), keeping no request in memory. */
    public ProbeReport measure(Path pointDir, MeasurementRequest point) {
        return measured(pointDir, point, null).report();
    }

    /**
     * A search's point {@code name}, in the directory of that name under the run directory; its records are kept
     * for the search's margins (a search probe's length is bounded by its stopping rule).
     */
    @Override
    public Measurement run(String name, MeasurementRequest request) {
        List<RequestRecord> kept = Collections.synchronizedList(new ArrayList<>());
        Measurement m = measured(dir.resolve(name), request, kept).measurement();
        List<RequestRecord> sorted = new ArrayList<>(kept);
        sorted.sort(Comparator.comparingLong(RequestRecord::index));
        return m.withRecords(sorted);
    }

    /** Whether {@code probe}'s directory is complete, so that a resumed search may reuse it. */
    public boolean finished(SearchReport.Probe probe) {
        return Files.isRegularFile(dir.resolve(probe.dir()).resolve("summary.json"));
    }

    private record Point(Measurement measurement, ProbeReport report) {}

    /** Measures one point; every record goes to the files and the metrics as it ends, and to {@code kept} if given. */
    private Point measured(Path pointDir, MeasurementRequest point, List<RequestRecord> kept) {
        if (measurer instanceof VirtualEngine) VirtualEngine.checkFits(simulator, point);
        RunFiles.createDirectories(pointDir);
        Instant started = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        RunFiles.writeConfig(
                pointDir,
                command,
                run.toolVersion(),
                started.toString(),
                point,
                run.promptSalt(),
                target,
                simulator == null ? null : simulator.settings(),
                workload(point),
                reuseAsked || point.sessions() != null,
                slos);
        Measurement m;
        ServerMetrics server = null;
        MetricsRecorder metrics = new MetricsRecorder(point.openLoop(), slos);
        SessionRecorder conversations =
                point.sessions() == null ? null : new SessionRecorder(point.sessions(), point.openLoop(), slos);
        // A search keeps its probe's requests for its margins; their chunk times only when an itl SLO reads them.
        boolean itl = slos.stream().anyMatch(o -> o.metric() == SloMetric.ITL);
        try (MetricsScraper scraper = metricsUrl == null
                        ? null
                        : new MetricsScraper(metricsUrl, metricsInterval, pointDir.resolve("server_metrics.jsonl"));
                RequestsJsonl log = new RequestsJsonl(pointDir.resolve("requests.jsonl"), chunkTimes);
                RequestsCsv csv = new RequestsCsv(pointDir.resolve("requests.csv"));
                Progress progress = err == null
                        ? null
                        : new Progress(
                                err,
                                command + " "
                                        + (point.sessions() == null
                                                ? point.load().label()
                                                : SessionSummary.loadLabel(point.load())))) {
            // Ctrl-C must not lose what was measured: the hook flushes requests.jsonl.
            Thread hook = new Thread(log::close);
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                m = measurer.measure(point, r -> {
                    log.append(r);
                    csv.append(r);
                    metrics.accept(r);
                    if (conversations != null) conversations.accept(r);
                    if (kept != null) kept.add(itl ? r : r.withoutChunkTimes());
                    if (progress != null) progress.record(r);
                });
            } finally {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            if (scraper != null) server = scraped(scraper);
        }
        // A session SLO is judged over whole sessions, beside the requests' own.
        Summary summary =
                conversations == null ? metrics.summary() : metrics.summary().withSlo(conversations.sloResults());
        ProbeReport report = report(
                m,
                summary,
                conversations == null ? null : conversations.summary(summary.windowSeconds()),
                server,
                started);
        Measurement.Notes notes = m.notes();
        long startMillis = notes != null ? notes.startEpochMicros() / 1000 : started.toEpochMilli();
        RunFiles.writeResults(pointDir, report, startMillis, metrics.intervals());
        return new Point(m, report);
    }

    /** What is sent: the run's workload, or for sessions what each session does. */
    private String workload(MeasurementRequest point) {
        return point.sessions() == null
                ? run.workload()
                : run.withSessions(point.sessions()).workload();
    }

    private ServerMetrics scraped(MetricsScraper scraper) {
        ServerMetrics server = scraper.finish();
        if (server.failed() > 0 && err != null) {
            err.println("warning: " + server.failed() + " of " + (server.failed() + server.scrapes())
                    + " metrics scrapes of " + metricsUrl + " failed (" + scraper.lastError()
                    + "); the probe is unaffected");
        }
        return server;
    }

    private ProbeReport report(
            Measurement m, Summary summary, SessionSummary sessions, ServerMetrics server, Instant started) {
        MeasurementRequest point = m.request();
        Measurement.Notes n = m.notes();
        String inputLength = n == null ? run.inputLength() : n.inputLength();
        RunInfo info = new RunInfo(
                run.toolVersion(),
                started.toString(),
                run.url(),
                n == null ? run.model() : n.model(),
                run.api(),
                run.simulator(),
                point.load(),
                point.maxConcurrency(),
                point.thinkTimeSeconds(),
                run.workload(),
                inputLength,
                m.seed(),
                n == null ? null : n.promptSalt(),
                n == null ? null : n.connections());
        if (point.sessions() != null) info = info.withSessions(point.sessions());
        // The virtual clock has no client to judge.
        ClientHealth health = ClientHealth.assess(
                summary, point.load(), n == null ? ClientHealth.Observed.NONE : n.client(), simulator != null);
        // A session resends its history: cached prompt tokens are what it is for, not a warning.
        boolean reuse = reuseAsked || point.sessions() != null;
        return new ProbeReport(
                info, summary, health, server, MeasurementWarnings.of(summary, inputLength, reuse), sessions);
    }
}
