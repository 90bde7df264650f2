package dev.headroom.cli.app;

import dev.headroom.cli.Version;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Metrics;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.probe.MetricsScraper;
import dev.headroom.probe.Probe;
import dev.headroom.probe.ProbeResult;
import dev.headroom.probe.Target;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.RunFiles;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one load point into a run directory (config.yaml, requests.jsonl, requests.csv, summary.json, histograms.hlog).
 */
public final class ProbeRunner {

    private final Target target;
    private final EngineConfig simulator;
    private final String apiKeyOrigin;
    private final PrintWriter err;
    /**
     * One probe for every load point: each run gets prompts of its own, and what it learns of the server carries over.
     */
    private final Probe probe;

    private String metricsUrl;
    private Duration metricsInterval = Duration.ofSeconds(1);

    /** Scrape {@code url} (null: do not) every {@code interval} during each run. */
    public ProbeRunner withMetrics(String url, Duration interval) {
        this.metricsUrl = url;
        this.metricsInterval = interval;
        return this;
    }

    /**
     * @param simulator    the embedded simulator's configuration, or null for a real server
     * @param apiKeyOrigin where the key came from, for config.yaml (never the key itself)
     * @param promptSalt   what the prompts are made from (see {@link Probe})
     */
    public ProbeRunner(Target target, EngineConfig simulator, String apiKeyOrigin, String promptSalt, PrintWriter err) {
        this.target = target;
        this.simulator = simulator;
        this.apiKeyOrigin = apiKeyOrigin;
        this.err = err;
        this.probe = new Probe(target, promptSalt);
    }

    public ProbeReport run(Path dir, WorkloadSpec workload, MeasurementRequest point, List<Slo> slos, String command) {
        String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        writeConfig(dir, workload, point, slos, startedAt, command);
        ProbeResult result;
        ServerMetrics server = null;
        try (MetricsScraper scraper = metricsUrl == null
                        ? null
                        : new MetricsScraper(metricsUrl, metricsInterval, dir.resolve("server_metrics.jsonl"));
                RequestsJsonl log = new RequestsJsonl(dir.resolve("requests.jsonl"));
                Progress progress =
                        new Progress(err, command + " " + point.load().label())) {
            // Ctrl-C must not lose what was measured: the hook flushes requests.jsonl.
            Thread hook = new Thread(log::close);
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                result = probe.run(workload, point, r -> {
                    log.append(r);
                    progress.record(r);
                });
            } finally {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            if (scraper != null) {
                server = scraper.finish();
                if (server.failed() > 0) {
                    err.println("warning: " + server.failed() + " of " + (server.failed() + server.scrapes())
                            + " metrics scrapes of " + metricsUrl + " failed (" + scraper.lastError()
                            + "); the probe is unaffected");
                }
            }
        }
        Summary summary = Metrics.summarize(result.records(), point.openLoop(), slos);
        ClientHealth health = ClientHealth.assess(
                summary.distribution("send_lag_ms").p99(),
                result.cpuMean(),
                result.cpuMax(),
                result.gcPauseMaxMs(),
                simulator != null);
        RunInfo info = new RunInfo(
                Version.get(),
                startedAt,
                result.target().baseUrl().toString(),
                result.target().model(),
                result.target().api().wireName(),
                simulator == null ? null : simulator.describe(),
                point.load(),
                point.maxConcurrency(),
                point.thinkTimeSeconds(),
                workload.describe(),
                result.inputLength(),
                point.seed(),
                result.promptSalt(),
                result.connections());
        boolean reuseAsked = workload.sharedPrefixTokens() > 0 || workload.dataset() != null;
        ProbeReport report = new ProbeReport(
                info, summary, health, server, MeasurementWarnings.of(summary, result.inputLength(), reuseAsked));
        RunFiles.writeResults(dir, result.records(), report, result.startEpochMicros() / 1000);
        return report;
    }

    private void writeConfig(
            Path dir, WorkloadSpec w, MeasurementRequest point, List<Slo> slos, String startedAt, String command) {
        Map<String, Object> tgt = new LinkedHashMap<>();
        tgt.put("url", target.baseUrl().toString());
        tgt.put("api", target.api().wireName());
        tgt.put("model", target.model());
        tgt.put("api_key", target.apiKey() == null ? "none" : "from " + apiKeyOrigin);
        tgt.put("headers", List.copyOf(target.headers().keySet()));
        tgt.put("insecure", target.insecure());
        tgt.put("connect_timeout_s", target.connectTimeout().toMillis() / 1000.0);
        tgt.put("first_token_timeout_s", target.firstTokenTimeout().toMillis() / 1000.0);
        tgt.put("timeout_s", target.totalTimeout().toMillis() / 1000.0);
        tgt.put("keep_alive", target.keepAlive().wireName());
        Object sim = simulator == null
                ? null
                : Map.of(
                        "hardware",
                        simulator.hardware().name(),
                        "model",
                        simulator.model().name(),
                        "tp",
                        simulator.tensorParallel(),
                        "max_num_seqs",
                        simulator.maxNumSeqs(),
                        "noise",
                        simulator.noise(),
                        "prefix_caching",
                        simulator.prefixCaching());
        RunFiles.writeConfig(dir, command, Version.get(), startedAt, point, probe.salt(), tgt, sim, w.describe(), slos);
    }
}
