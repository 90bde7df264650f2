package dev.headroom.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metrics;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.probe.Probe;
import dev.headroom.probe.ProbeResult;
import dev.headroom.probe.RunPlan;
import dev.headroom.probe.Target;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.ConsoleTable;
import dev.headroom.reports.HistogramLog;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.SummaryCsv;
import dev.headroom.reports.SummaryJson;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code headroom probe}: measure one load point and write a run directory. */
@Command(name = "probe", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Measure an OpenAI-compatible streaming endpoint (default: the embedded simulator) at one load "
                + "point: TTFT, ITL, TPOT, E2E, throughput, goodput, errors.")
public final class ProbeCommand implements Callable<Integer> {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Spec
    CommandSpec spec;
    @Mixin
    TargetOptions target;
    @Mixin
    WorkloadOptions workload;
    @Mixin
    LoadOptions load;
    @Mixin
    RunOptions run;
    @Mixin
    OutputOptions output;
    @Mixin
    SimTargetOptions sim;

    @Override
    public Integer call() {
        String format = output.format();
        List<Slo> slos = run.slos.stream().map(Slo::parse).toList();
        WorkloadSpec spec = workload.toSpec();
        RunPlan plan = new RunPlan(load.toLoad(8), load.thinkTime, load.maxConcurrency, run.effectiveDuration(),
                run.requests, run.effectiveWarmup(), run.warmupRequests, run.ramp, run.grace, run.seed);
        EngineConfig engine = target.embedded() ? sim.toConfig(run.seed) : null;
        if (!target.embedded()) target.toTarget(target.parsedUrl()); // validate everything before writing anything
        Path dir = output.runDirectory("probe");
        SimServer server = engine == null ? null : SimServer.start(SimServer.Config.loopback(engine));
        try {
            Target t = target.toTarget(server != null ? server.baseUri() : target.parsedUrl());
            String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
            writeConfig(dir, t, spec, plan, slos, engine, startedAt);
            PrintWriter err = spec().commandLine().getErr();
            ProbeResult result;
            try (RequestsJsonl log = new RequestsJsonl(dir.resolve("requests.jsonl"));
                 Progress progress = new Progress(err, "probe " + plan.load().label())) {
                Thread hook = new Thread(log::close);
                Runtime.getRuntime().addShutdownHook(hook);
                result = new Probe(t).run(spec, plan, r -> {
                    log.append(r);
                    progress.record(r);
                });
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            Summary summary = Metrics.summarize(result.records(), plan.openLoop(), slos);
            ClientHealth health = health(summary, result, engine != null);
            RunInfo info = new RunInfo(Version.get(), startedAt, result.target().baseUrl().toString(),
                    result.target().model(), result.target().api().wireName(),
                    engine == null ? null : SimTargetOptions.describe(engine), plan.load(), plan.maxConcurrency(),
                    plan.thinkTime().toMillis() / 1000.0, WorkloadOptions.describe(spec), result.inputLength(), plan.seed());
            ProbeReport report = new ProbeReport(info, summary, health);
            write(dir.resolve("summary.json"), SummaryJson.write(report));
            HistogramLog.write(dir.resolve("histograms.hlog"), summary.histograms(), result.startEpochMicros() / 1000,
                    summary.windowSeconds());
            PrintWriter out = spec().commandLine().getOut();
            switch (format) {
                case "json" -> out.print(SummaryJson.write(report));
                case "csv" -> out.print(SummaryCsv.write(List.of(SummaryCsv.row(report))));
                default -> out.print(ConsoleTable.probe(report));
            }
            out.flush();
            // The table already shows the warnings; with json/csv on stdout they go to stderr.
            if (!format.equals("table")) for (String w : health.warnings()) err.println("warning: " + w);
            err.println("run directory: " + dir);
            err.flush();
            return ExitCodes.OK;
        } finally {
            if (server != null) server.close();
        }
    }

    private CommandSpec spec() {
        return spec;
    }

    /** Client health; beside the in-process simulator the process CPU is shared, so CPU is reported but not judged. */
    static ClientHealth health(Summary summary, ProbeResult result, boolean embedded) {
        double cpu = embedded ? Double.NaN : result.cpuMean();
        ClientHealth h = ClientHealth.assess(summary.distribution("send_lag_ms").p99(), cpu, result.cpuMax(),
                result.gcPauseMaxMs());
        if (embedded) {
            return new ClientHealth(h.sendLagP99Ms(), result.cpuMean(), h.cpuMax(), h.gcPauseMaxMs(), h.clientBound(),
                    h.warnings());
        }
        return h;
    }

    private void writeConfig(Path dir, Target t, WorkloadSpec w, RunPlan plan, List<Slo> slos, EngineConfig engine,
                             String startedAt) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("tool", Map.of("name", "headroom", "version", Version.get()));
        c.put("command", "probe");
        c.put("started_at", startedAt);
        c.put("seed", plan.seed());
        Map<String, Object> tgt = new LinkedHashMap<>();
        tgt.put("url", t.baseUrl().toString());
        tgt.put("api", t.api().wireName());
        tgt.put("model", t.model());
        tgt.put("api_key", t.apiKey() == null ? "none" : "from " + (target.apiKeyFile != null ? "file" : "$" + target.apiKeyEnv));
        tgt.put("headers", List.copyOf(t.headers().keySet()));
        tgt.put("insecure", t.insecure());
        tgt.put("connect_timeout_s", t.connectTimeout().toMillis() / 1000.0);
        tgt.put("first_token_timeout_s", t.firstTokenTimeout().toMillis() / 1000.0);
        tgt.put("timeout_s", t.totalTimeout().toMillis() / 1000.0);
        c.put("target", tgt);
        if (engine != null) {
            c.put("simulator", Map.of("hardware", engine.hardware().name(), "model", engine.model().name(),
                    "tp", engine.tensorParallel(), "max_num_seqs", engine.maxNumSeqs(), "noise", engine.noise()));
        }
        Map<String, Object> l = new LinkedHashMap<>();
        switch (plan.load()) {
            case LoadModel.Closed cl -> {
                l.put("mode", "closed");
                l.put("concurrency", cl.concurrency());
                l.put("think_time_s", plan.thinkTime().toMillis() / 1000.0);
            }
            case LoadModel.Open o -> {
                l.put("mode", "open");
                l.put("rate", o.ratePerSecond());
                l.put("arrival", o.label());
                l.put("max_concurrency", plan.maxConcurrency());
            }
        }
        c.put("load", l);
        c.put("workload", WorkloadOptions.describe(w));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("duration_s", plan.duration() == null ? null : plan.duration().toMillis() / 1000.0);
        r.put("requests", plan.requests());
        r.put("warmup_s", plan.warmup().toMillis() / 1000.0);
        r.put("warmup_requests", plan.warmupRequests());
        r.put("ramp_s", plan.ramp().toMillis() / 1000.0);
        r.put("grace_s", plan.grace().toMillis() / 1000.0);
        c.put("run", r);
        c.put("slo", slos.stream().map(Slo::text).toList());
        try {
            write(dir.resolve("config.yaml"), YAML.writeValueAsString(c));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
