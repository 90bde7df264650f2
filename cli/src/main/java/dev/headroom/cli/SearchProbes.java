package dev.headroom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Measurer;
import dev.headroom.model.Metrics;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.optimizer.Goodput;
import dev.headroom.optimizer.Margin;
import dev.headroom.optimizer.ProbeShape;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.MetricsScraper;
import dev.headroom.reports.HistogramLog;
import dev.headroom.reports.RequestsCsv;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.SummaryJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The probes of one search: each measured into its own run directory (summary.json, requests.jsonl) and summarised
 * as the search needs it (every SLO's margin, goodput), or — when resuming — taken from the interrupted search's
 * {@code search.json}, as long as the search asks for the same load at the same position.
 */
final class SearchProbes {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private final SearchSpec search;
    private final Measurer measurer;
    private final RunInfo info;
    private final Path dir;
    private final ProbeShape shape;
    private final List<SearchReport.Probe> previous;
    private final List<SearchReport.Probe> done = new ArrayList<>();
    private String metricsUrl;
    private Duration metricsInterval;
    private boolean replaying;
    private boolean lastReused;
    private boolean lastSoak;
    private int reused;

    SearchProbes(SearchSpec search, Measurer measurer, RunInfo info, Path dir, SearchReport resumed) {
        this.search = search;
        this.measurer = measurer;
        this.info = info;
        this.dir = dir;
        this.shape = new ProbeShape(search);
        this.previous = resumed == null ? List.of() : resumed.probes();
        this.replaying = resumed != null;
        if (resumed != null && resumed.rampSeconds() > 0) shape.restore(resumed.rampSeconds());
    }

    /** Scrape the server's Prometheus metrics at {@code url} (null: do not) during every probe measured. */
    SearchProbes withMetrics(String url, Duration interval) {
        this.metricsUrl = url;
        this.metricsInterval = interval;
        return this;
    }

    /** The probe at {@code load}, position {@code index}: reused if the interrupted search finished it, else measured. */
    SearchReport.Probe at(double load, int index) {
        lastSoak = shape.isSoak(load);
        if (replaying && index < previous.size() && sameLoad(previous.get(index).load(), load)
                && Files.isRegularFile(dir.resolve(previous.get(index).dir()).resolve("summary.json"))) {
            done.add(previous.get(index));
            // The probes after it are shaped from what this one measured, exactly as in the interrupted run.
            shape.learnCycle(load, previous.get(index).e2eMeanSeconds());
            shape.remember(load);
            reused++;
            lastReused = true;
            return previous.get(index);
        }
        // From the first probe that differs (or was not finished), everything is measured afresh.
        replaying = false;
        lastReused = false;
        SearchReport.Probe p = measure(load, index);
        done.add(p);
        return p;
    }

    private static boolean sameLoad(double a, double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    }

    private SearchReport.Probe measure(double load, int index) {
        LoadModel lm = search.integerLoad() ? new LoadModel.Closed((int) Math.round(load))
                : new LoadModel.Open(load, search.arrivals());
        String name = OutputOptions.pointName(index, lm);
        Path probeDir = dir.resolve(name);
        createDirectories(probeDir);
        Measurement m;
        ServerMetrics server = null;
        try (MetricsScraper scraper = metricsUrl == null ? null
                : new MetricsScraper(metricsUrl, metricsInterval, probeDir.resolve("server_metrics.jsonl"))) {
            m = measurer.measure(new MeasurementRequest(lm, search.workload(), shape.forLoad(load), search.seed() + index,
                    shape.stopRule(load)));
            if (scraper != null) server = scraper.finish();
        }
        shape.learn(m);
        writeProbe(probeDir, m, lm, search.slos(), server);
        boolean open = !search.integerLoad();
        Map<String, SearchReport.SloMargin> margins = new LinkedHashMap<>();
        boolean pass = true;
        for (Slo s : search.slos()) {
            Margin mg = Margin.of(s, m.records(), open);
            margins.put(s.text(), new SearchReport.SloMargin(mg.value(), mg.se(), mg.samples()));
            pass &= mg.passing();
        }
        Goodput g = Goodput.of(m.records(), open, search.slos(), search.goodputUnit());
        return new SearchReport.Probe(index + 1, load, margins, pass, new double[] {g.value(), g.se()},
                m.records().size(), m.elapsedNanos() / 1e9, name, search.integerLoad() ? ProbeShape.meanE2e(m) : Double.NaN);
    }

    /** Each probe's own run directory, holding what a probe's holds (summary.json last). */
    private static void createDirectories(Path probeDir) {
        try {
            Files.createDirectories(probeDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + probeDir + ": " + e.getMessage(), e);
        }
    }

    private void writeProbe(Path probeDir, Measurement m, LoadModel lm, List<Slo> slos, ServerMetrics server) {
        try (RequestsJsonl log = new RequestsJsonl(probeDir.resolve("requests.jsonl"))) {
            m.records().forEach(log::append);
        }
        RequestsCsv.write(probeDir.resolve("requests.csv"), m.records());
        Summary summary = Metrics.summarize(m.records(), lm instanceof LoadModel.Open, slos);
        Measurement.Notes notes = m.notes();
        String inputLength = notes == null ? info.inputLength() : notes.inputLength();
        RunInfo probeInfo = new RunInfo(info.toolVersion(), info.startedAt(), info.url(), info.model(), info.api(),
                info.simulator(), lm, 0, 0, info.workload(), inputLength, m.seed(),
                notes == null ? null : notes.promptSalt(), notes == null ? null : notes.connections());
        ClientHealth health = m.simulated() ? ClientHealth.assess(0, Double.NaN, Double.NaN, 0)
                : ClientHealth.assess(summary.distribution("send_lag_ms").p99(), Double.NaN, Double.NaN, 0);
        ProbeReport report = new ProbeReport(probeInfo, summary, health, server,
                MeasurementWarnings.of(summary, inputLength, false));
        long startMillis = notes != null ? notes.startEpochMicros() / 1000 : Instant.parse(info.startedAt()).toEpochMilli();
        HistogramLog.write(probeDir.resolve("histograms.hlog"), summary.histograms(), startMillis, summary.windowSeconds());
        writeConfig(probeDir, m, lm, slos, notes);
        // summary.json last: its presence marks the probe as finished for --resume.
        ProbeRunner.write(probeDir.resolve("summary.json"), SummaryJson.write(report));
    }

    /** The probe's config.yaml: what was measured, as a probe's records it (no secrets: the target's URL and model). */
    private void writeConfig(Path probeDir, Measurement m, LoadModel lm, List<Slo> slos, Measurement.Notes notes) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("tool", Map.of("name", "headroom", "version", info.toolVersion()));
        c.put("command", "search");
        c.put("started_at", info.startedAt());
        c.put("seed", m.seed());
        if (notes != null) c.put("prompt_salt", notes.promptSalt());
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("url", info.url());
        target.put("model", info.model());
        target.put("api", info.api());
        c.put("target", target);
        if (info.simulator() != null) c.put("simulator", info.simulator());
        c.put("load", ProbeRunner.loadSection(lm, 0, 0));
        c.put("workload", info.workload());
        RunLength length = m.request().length();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("requests", length.requests());
        run.put("max_s", length.maxSeconds() >= Long.MAX_VALUE / 1e9 ? null : length.maxSeconds());
        run.put("warmup_requests", length.warmupRequests());
        run.put("warmup_s", length.warmupSeconds());
        run.put("ramp_s", length.rampSeconds());
        c.put("run", run);
        c.put("slo", slos.stream().map(Slo::text).toList());
        try {
            ProbeRunner.write(probeDir.resolve("config.yaml"), YAML.writeValueAsString(c));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    List<SearchReport.Probe> done() {
        return List.copyOf(done);
    }

    Path dir() {
        return dir;
    }

    double rampSeconds() {
        return shape.rampSeconds();
    }

    int reused() {
        return reused;
    }

    /** Appended to a probe's console line: a soak (an open-loop rate measured again, longer), reused rather than measured. */
    String mark() {
        return (lastSoak ? "  (soak: " + ProbeShape.SOAK_FACTOR + "x as long)" : "") + (lastReused ? "  (reused)" : "");
    }
}
