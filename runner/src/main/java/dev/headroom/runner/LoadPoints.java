package dev.headroom.runner;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.DegradedRunException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Measurer;
import dev.headroom.model.MetricsRecorder;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunInfo;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.SessionRecorder;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.Summary;
import dev.headroom.model.UserStart;
import dev.headroom.model.WorkerRun;
import dev.headroom.optimizer.ProbeShape;
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
import java.util.Locale;
import java.util.Map;

/**
 * The one way a load point is measured, for probe, sweep and search alike: each point gets a directory holding
 * config.yaml (written first), requests.jsonl (appended as requests finish), requests.csv, histograms.hlog,
 * server_metrics.jsonl when scraped, and summary.json last (its presence marks the point finished, e.g. for a
 * resumed search).
 */
public final class LoadPoints implements SearchRun.LoadPoint {
    /** The pilot's directory under a load point's (or a search's). */
    public static final String PILOT = "pilot";

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
    private boolean searchSpread;
    private Measurer pilots;

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
        return measured(pointDir, point, null, UserStart.of(point.length())).report();
    }

    /** {@link #measureSpread} when {@code spread}, else {@link #measure}. */
    public ProbeReport measure(Path pointDir, MeasurementRequest point, boolean spread) {
        return spread ? measureSpread(pointDir, point) : measure(pointDir, point);
    }

    /**
     * As {@link #measure}, but a closed loop of several users given no ramp is started as a search probe is: evenly
     * over one request cycle at its load, estimated from a pilot request sent alone first (into {@code pilot/} under
     * {@code pointDir}, every file of a load point) by {@link ProbeShape#cycleFromLone}, plus the think time; a timed
     * warm-up is made to cover the ramp and one more cycle. A pilot that fails leaves the users starting at once.
     */
    public ProbeReport measureSpread(Path pointDir, MeasurementRequest point) {
        if (!(point.load() instanceof LoadModel.Closed c)
                || c.concurrency() == 1
                || point.length().rampSeconds() > 0) {
            return measure(pointDir, point);
        }
        double lone = pilot(pointDir.resolve(PILOT), point);
        if (!(lone > 0)) {
            var start = new UserStart(UserStart.How.AT_ONCE, 0, "the pilot request failed: no cycle to spread over");
            return measured(pointDir, point, null, start).report();
        }
        double think = point.sessions() != null ? point.sessions().thinkTime().meanSeconds() : point.thinkTimeSeconds();
        double cycle = ProbeShape.cycleFromLone(lone, c.concurrency()) + think;
        RunLength l = point.length();
        RunLength spread = new RunLength(
                l.requests(),
                l.maxSeconds(),
                l.warmupRequests(),
                cycle,
                l.warmupSeconds() > 0 ? Math.max(l.warmupSeconds(), 2 * cycle) : 0,
                l.graceSeconds());
        MeasurementRequest p = new MeasurementRequest(
                point.load(), point.workload(), spread, point.seed(), point.stopEarly(), point.sessions());
        String basis = String.format(
                Locale.ROOT,
                "a pilot request's e2e %.3f s x sqrt(%d users)%s",
                lone,
                c.concurrency(),
                think > 0 ? " + the think time" : "");
        return measured(pointDir, p, null, UserStart.oneCycle(cycle, basis)).report();
    }

    /**
     * Sends {@code point}'s first request alone — one user, one request, no warm-up — as a load point of its own in
     * {@code pilotDir}: the e2e of a lone request in seconds, NaN when it failed.
     */
    public double pilot(Path pilotDir, MeasurementRequest point) {
        MeasurementRequest lone = new MeasurementRequest(
                new LoadModel.Closed(1), point.workload(), RunLength.requests(1), point.seed(), null, point.sessions());
        List<RequestRecord> kept = Collections.synchronizedList(new ArrayList<>());
        measured(pilotDir, lone, kept, UserStart.of(lone.length()), pilots != null ? pilots : measurer);
        synchronized (kept) {
            return kept.stream()
                    .filter(r -> r.succeeded() && !r.warmup())
                    .mapToDouble(r -> (r.endNanos() - r.sentNanos()) / 1e9)
                    .findFirst()
                    .orElse(Double.NaN);
        }
    }

    /** Sends pilot requests through {@code m} rather than the points' measurer (e.g. with prompts of their own). */
    LoadPoints withPilots(Measurer m) {
        this.pilots = m;
        return this;
    }

    /** Labels a search's probes with a ramp as spread over one request cycle (which the search estimates). */
    LoadPoints spreadBySearch() {
        this.searchSpread = true;
        return this;
    }

    /**
     * A search's point {@code name}, in the directory of that name under the run directory; its records are kept
     * for the search's margins (a search probe's length is bounded by its stopping rule).
     */
    @Override
    public Measurement run(String name, MeasurementRequest request) {
        List<RequestRecord> kept = Collections.synchronizedList(new ArrayList<>());
        UserStart start = searchSpread && request.length().rampSeconds() > 0
                ? UserStart.oneCycle(
                        request.length().rampSeconds(),
                        "the request cycle at this load, from the loads the search measured (and its pilot)")
                : UserStart.of(request.length());
        Point done = measured(dir.resolve(name), request, kept, start);
        if (done.report().degraded()) {
            // Its load fell short of the one asked for: neither a pass nor a fail of that load.
            throw new DegradedRunException("search probe " + name + " was degraded: "
                    + String.join(
                            "; ",
                            done.report().warnings().stream()
                                    .filter(w -> w.startsWith("worker "))
                                    .toList())
                    + "; what it measured is in " + dir.resolve(name));
        }
        Measurement m = done.measurement();
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
    private Point measured(Path pointDir, MeasurementRequest point, List<RequestRecord> kept, UserStart start) {
        return measured(pointDir, point, kept, start, measurer);
    }

    private Point measured(
            Path pointDir, MeasurementRequest point, List<RequestRecord> kept, UserStart start, Measurer by) {
        if (by instanceof VirtualEngine) VirtualEngine.checkFits(simulator, point);
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
                m = by.measure(point, r -> {
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
                started,
                start);
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
            Measurement m,
            Summary summary,
            SessionSummary sessions,
            ServerMetrics server,
            Instant started,
            UserStart start) {
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
        List<WorkerRun> workers = n == null ? List.of() : n.workers();
        ClientHealth health = ClientHealth.assess(
                        summary, point.load(), n == null ? ClientHealth.Observed.NONE : n.client(), simulator != null)
                .withWorkers(workers);
        // A session resends its history: cached prompt tokens are what it is for, not a warning.
        boolean reuse = reuseAsked || point.sessions() != null;
        List<String> warnings = new ArrayList<>(MeasurementWarnings.of(summary, inputLength, reuse));
        for (WorkerRun w : workers) {
            if (w.degraded()) warnings.add("worker " + w.worker() + " (" + w.address() + "): " + w.problem());
        }
        return new ProbeReport(info, summary, health, server, warnings, sessions, start, workers);
    }
}
