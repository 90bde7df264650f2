package dev.headroom.reports;

import static dev.headroom.reports.JsonNumbers.num;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.Distribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.ServerMetrics;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.UserStart;
import dev.headroom.model.WorkerRun;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code summary.json}, schema {@value #SCHEMA}: the public contract of a probe result (docs/results.md
 * describes every key; a golden-file test seals the layout).
 */
public final class SummaryJson {
    public static final String SCHEMA = "headroom.probe/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String[] DISTRIBUTIONS = {
        "ttft_ms", "ttft_from_send_ms", "itl_ms", "tpot_ms", "e2e_ms", "isl", "osl"
    };

    private SummaryJson() {}

    /**
     * A summary.json tree read back (a sweep's row with its sweep's target, workload and seed reads the same way):
     * what the file does not hold is NaN, zero, empty or null. Writing the result gives the same file.
     */
    public static ProbeReport read(JsonNode n) {
        JsonNode target = n.path("target"), workload = n.path("workload"), load = n.path("load");
        RunInfo run = new RunInfo(
                text(n.at("/tool/version")),
                text(n.path("started_at")),
                text(target.path("url")),
                text(target.path("model")),
                text(target.path("api")),
                text(target.path("simulator")),
                load(load),
                load.path("max_concurrency").asInt(0),
                load.path("think_time_s").asDouble(0),
                text(workload.path("description")),
                text(workload.path("input_length")),
                n.path("seed").asLong(),
                text(workload.path("prompt_salt")),
                text(n.at("/connections/policy")));
        JsonNode metrics = n.path("metrics"), counts = n.path("counts"), client = n.path("client");
        Map<Metric, Distribution> distributions = new EnumMap<>(Metric.class);
        for (String key : DISTRIBUTIONS) distributions.put(Metric.ofKey(key), distribution(metrics.path(key)));
        distributions.put(Metric.SEND_LAG_MS, distribution(client.path(Metric.SEND_LAG_MS.key())));
        List<Summary.SloResult> slos = new ArrayList<>();
        for (JsonNode o : n.path("slo")) {
            slos.add(new Summary.SloResult(
                    slo(o), num(o.path("observed")), o.path("pass").asBoolean()));
        }
        Map<String, Long> errors = new LinkedHashMap<>();
        n.path("errors")
                .properties()
                .forEach(e -> errors.put(e.getKey(), e.getValue().asLong()));
        JsonNode cache = n.path("cache"), connections = n.path("connections");
        Summary summary = new Summary(
                new Summary.Counts(
                        counts.path("completed").asLong(),
                        counts.path("failed").asLong(),
                        counts.path("incomplete").asLong(),
                        counts.path("warmup").asLong(),
                        counts.path("client_errors").asLong()),
                num(n.path("window_s")),
                distributions,
                num(metrics.path("output_tokens_per_s")),
                num(metrics.path("requests_per_s")),
                num(metrics.path("total_tokens_per_s")),
                num(metrics.path("goodput_requests_per_s")),
                num(metrics.path("goodput_tokens_per_s")),
                num(metrics.path("slo_attainment")),
                num(metrics.path("error_rate")),
                slos,
                n.path("slo_pass").asBoolean(),
                errors,
                counts.path("osl_short").asLong(),
                Map.of(),
                new Summary.Cache(
                        cache.path("reporting").asLong(),
                        cache.path("prompt_tokens").asLong(),
                        cache.path("cached_tokens").asLong(),
                        cache.path("hits").asLong()),
                new Summary.Connections(
                        connections.path("opened").asLong(),
                        connections.path("reused").asLong(),
                        connections.path("stale").asLong()),
                Double.NaN);
        List<String> clientWarnings = new ArrayList<>();
        client.path("warnings").forEach(w -> clientWarnings.add(w.asText()));
        ClientHealth health = new ClientHealth(
                distributions.get(Metric.SEND_LAG_MS).p99(),
                distribution(client.path("scheduling_delay_ms")),
                num(client.path("timing_error_ms")),
                num(client.path("cpu_util")),
                num(client.path("cpu_max")),
                num(client.path("gc_pause_max_ms")),
                client.path("client_bound").asBoolean(),
                clientWarnings);
        List<String> warnings = new ArrayList<>();
        n.path("warnings").forEach(w -> warnings.add(w.asText()));
        SessionSummary sessions = n.has("sessions") ? SessionsJson.read(n.path("sessions")) : null;
        JsonNode start = load.path("user_start");
        UserStart.How how = UserStart.How.ofWire(start.path("how").asText());
        return new ProbeReport(
                sessions == null ? run : run.carrying(sessions.spec()),
                summary,
                health,
                n.has("server") ? server(n.path("server")) : null,
                warnings,
                sessions,
                how == null
                        ? null
                        : new UserStart(
                                how,
                                num(start.path("ramp_s")),
                                start.path("basis").asText()),
                n.has("workers") ? workers(n.path("workers")) : List.of());
    }

    /** The load a result records; null when it is none Headroom runs (an imported "all at once", or no mode). */
    static LoadModel load(JsonNode load) {
        String mode = load.path("mode").asText();
        if (mode.equals("closed") && load.path("concurrency").isNumber()) {
            return new LoadModel.Closed(load.path("concurrency").asInt());
        }
        if (!mode.equals("open") || !load.path("rate").isNumber()) return null;
        ArrivalProcess arrivals = switch (load.path("arrival").asText()) {
            case "constant" -> new ArrivalProcess.Constant();
            case "gamma" -> new ArrivalProcess.Gamma(load.path("burstiness").asDouble(1));
            // A replay's arrival times are in its trace, not in summary.json: only the kind is read back.
            case "trace" -> new ArrivalProcess.Replay(new double[] {0});
            default -> new ArrivalProcess.Poisson();
        };
        return new LoadModel.Open(load.path("rate").asDouble(), arrivals);
    }

    private static Slo slo(JsonNode o) {
        SloMetric metric = SloMetric.find(o.path("metric").asText());
        if (metric == null) throw new BadInputException("unknown SLO metric " + o.path("metric"));
        SloStat stat = metric.isRate() ? null : SloStat.find(o.path("stat").asText());
        return new Slo(
                metric,
                stat,
                o.path("op").asText().equals("<="),
                o.path("threshold").asDouble());
    }

    static Distribution distribution(JsonNode d) {
        return new Distribution(
                d.path("count").asLong(),
                num(d.path("mean")),
                num(d.path("min")),
                num(d.path("p50")),
                num(d.path("p90")),
                num(d.path("p95")),
                num(d.path("p99")),
                num(d.path("p999")),
                num(d.path("max")));
    }

    private static ServerMetrics server(JsonNode o) {
        Map<String, double[]> gauges = new LinkedHashMap<>();
        for (String k : ServerMetrics.GAUGES) {
            if (o.has(k)) gauges.put(k, new double[] {num(o.at("/" + k + "/mean")), num(o.at("/" + k + "/max"))});
        }
        Map<String, Double> counters = new LinkedHashMap<>();
        for (String k : ServerMetrics.COUNTERS) if (o.has(k)) counters.put(k, num(o.path(k)));
        return new ServerMetrics(
                text(o.path("url")),
                num(o.path("interval_s")),
                o.path("scrapes").asInt(),
                o.path("failed_scrapes").asInt(),
                o.path("metric_names").asInt(),
                gauges,
                counters);
    }

    private static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }

    public static String write(ProbeReport report) {
        try {
            return MAPPER.writeValueAsString(tree(report)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode tree(ProbeReport report) {
        RunInfo run = report.run();
        Summary s = report.summary();
        ObjectNode root = JsonHeader.root(SCHEMA, run.toolVersion());
        root.put("started_at", run.startedAt());
        ObjectNode target = root.putObject("target");
        target.put("url", run.url());
        target.put("model", run.model());
        target.put("api", run.api());
        if (run.simulator() == null) target.putNull("simulator");
        else target.put("simulator", run.simulator());
        root.set("load", load(run, report.userStart()));
        ObjectNode workload = root.putObject("workload");
        workload.put("description", run.workload());
        workload.put("input_length", run.inputLength());
        if (run.promptSalt() == null) workload.putNull("prompt_salt");
        else workload.put("prompt_salt", run.promptSalt());
        root.put("seed", run.seed());
        JsonNumbers.put(root, "window_s", s.windowSeconds(), 3);
        ObjectNode counts = root.putObject("counts");
        counts.put("completed", s.counts().completed());
        counts.put("failed", s.counts().failed());
        counts.put("incomplete", s.counts().incomplete());
        counts.put("warmup", s.counts().warmup());
        counts.put("client_errors", s.counts().clientErrors());
        counts.put("osl_short", s.oslShort());
        ObjectNode metrics = root.putObject("metrics");
        for (String key : DISTRIBUTIONS)
            metrics.set(key, distribution(s.distribution(Metric.ofKey(key)), key.endsWith("_ms") ? 3 : 1));
        JsonNumbers.put(metrics, "output_tokens_per_s", s.outputTokensPerS(), 3);
        JsonNumbers.put(metrics, "requests_per_s", s.requestsPerS(), 4);
        JsonNumbers.put(metrics, "total_tokens_per_s", s.totalTokensPerS(), 3);
        JsonNumbers.put(metrics, "goodput_requests_per_s", s.goodputRequestsPerS(), 4);
        JsonNumbers.put(metrics, "goodput_tokens_per_s", s.goodputTokensPerS(), 3);
        JsonNumbers.put(metrics, "slo_attainment", s.sloAttainment(), 4);
        JsonNumbers.put(metrics, "error_rate", s.errorRate(), 4);
        ArrayNode slo = root.putArray("slo");
        for (Summary.SloResult r : s.slo()) {
            ObjectNode o = slo.addObject();
            o.put("metric", r.slo().metric().wireName());
            if (r.slo().stat() == null) o.putNull("stat");
            else o.put("stat", r.slo().stat().text());
            o.put("op", r.slo().inclusive() ? "<=" : "<");
            JsonNumbers.put(o, "threshold", r.slo().threshold(), 4);
            o.put("unit", r.slo().isRate() ? "fraction" : "ms");
            JsonNumbers.put(o, "observed", r.observed(), 4);
            o.put("pass", r.pass());
        }
        root.put("slo_pass", s.sloPass());
        ObjectNode errors = root.putObject("errors");
        s.errors().forEach(errors::put);
        root.set("cache", cache(s.cache()));
        root.set("connections", connections(run, s.connections()));
        root.set("client", client(report.client(), s));
        if (report.server() != null) root.set("server", server(report.server()));
        if (report.sessions() != null) root.set("sessions", SessionsJson.write(report.sessions()));
        if (!report.workers().isEmpty()) root.set("workers", workers(report.workers()));
        ArrayNode warnings = root.putArray("warnings");
        report.warnings().forEach(warnings::add);
        return root;
    }

    private static ObjectNode load(RunInfo run, UserStart start) {
        ObjectNode load = MAPPER.createObjectNode();
        // With sessions, the concurrency is sessions in progress and the rate new sessions per second.
        if (run.sessions() != null) load.put("unit", "sessions");
        switch (run.load()) {
            case LoadModel.Closed c -> {
                load.put("mode", "closed");
                load.put("concurrency", c.concurrency());
                load.putNull("rate");
                load.putNull("arrival");
                JsonNumbers.put(load, "think_time_s", run.thinkTimeSeconds(), 3);
            }
            case LoadModel.Open o -> {
                load.put("mode", "open");
                load.putNull("concurrency");
                JsonNumbers.put(load, "rate", o.ratePerSecond(), 6);
                load.put(
                        "arrival",
                        switch (o.arrivals()) {
                            case ArrivalProcess.Constant k -> "constant";
                            case ArrivalProcess.Poisson p -> "poisson";
                            case ArrivalProcess.Gamma g -> "gamma";
                            case ArrivalProcess.Replay r -> "trace";
                        });
                if (o.arrivals() instanceof ArrivalProcess.Gamma g) JsonNumbers.put(load, "burstiness", g.shape(), 6);
                if (run.maxConcurrency() > 0) load.put("max_concurrency", run.maxConcurrency());
                else load.putNull("max_concurrency");
            }
        }
        if (start != null) {
            ObjectNode u = load.putObject("user_start");
            u.put("how", start.how().wireName());
            JsonNumbers.put(u, "ramp_s", start.rampSeconds(), 3);
            u.put("basis", start.basis());
        }
        return load;
    }

    static ObjectNode distribution(Distribution d, int decimals) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("count", d.count());
        JsonNumbers.put(o, "mean", d.mean(), decimals);
        JsonNumbers.put(o, "min", d.min(), decimals);
        JsonNumbers.put(o, "p50", d.p50(), decimals);
        JsonNumbers.put(o, "p90", d.p90(), decimals);
        JsonNumbers.put(o, "p95", d.p95(), decimals);
        JsonNumbers.put(o, "p99", d.p99(), decimals);
        JsonNumbers.put(o, "p999", d.p999(), decimals);
        JsonNumbers.put(o, "max", d.max(), decimals);
        return o;
    }

    /** cache{reporting, prompt_tokens, cached_tokens, cached_fraction, hits}: what usage said of the prefix cache. */
    private static ObjectNode cache(Summary.Cache c) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("reporting", c.reporting());
        o.put("prompt_tokens", c.promptTokens());
        o.put("cached_tokens", c.cachedTokens());
        JsonNumbers.put(o, "cached_fraction", c.cachedFraction(), 4);
        o.put("hits", c.hits());
        return o;
    }

    /** connections{policy, opened, reused, stale}: how the requests' connections behaved. */
    private static ObjectNode connections(RunInfo run, Summary.Connections c) {
        ObjectNode o = MAPPER.createObjectNode();
        if (run.connections() == null) o.putNull("policy");
        else o.put("policy", run.connections());
        o.put("opened", c.opened());
        o.put("reused", c.reused());
        o.put("stale", c.stale());
        return o;
    }

    /** server{url, interval_s, scrapes, failed_scrapes, metric_names, running{mean,max}, …, preemptions, …}. */
    private static ObjectNode server(ServerMetrics m) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("url", m.url());
        JsonNumbers.put(o, "interval_s", m.intervalSeconds(), 3);
        o.put("scrapes", m.scrapes());
        o.put("failed_scrapes", m.failed());
        o.put("metric_names", m.names());
        m.gauges().forEach((k, v) -> {
            ObjectNode g = o.putObject(k);
            JsonNumbers.put(g, "mean", v[0], 4);
            JsonNumbers.put(g, "max", v[1], 4);
        });
        m.counters().forEach((k, v) -> JsonNumbers.put(o, k, v, 1));
        JsonNumbers.put(o, "prefix_cache_hit_rate", m.prefixCacheHitRate(), 4);
        return o;
    }

    /** A distributed run's workers (docs/distributed.md): each one's share, clock and client. */
    private static ObjectNode workers(List<WorkerRun> runs) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("count", runs.size());
        o.put("degraded", runs.stream().anyMatch(WorkerRun::degraded));
        JsonNumbers.put(
                o,
                "clock_error_max_ms",
                runs.stream()
                        .mapToDouble(WorkerRun::clockErrorMs)
                        .filter(e -> !Double.isNaN(e))
                        .max()
                        .orElse(Double.NaN),
                3);
        ArrayNode each = o.putArray("each");
        for (WorkerRun r : runs) {
            ObjectNode w = each.addObject();
            w.put("worker", r.worker());
            w.put("address", r.address());
            w.put("records", r.records());
            JsonNumbers.put(w, "offset_ms", r.offsetMs(), 3);
            JsonNumbers.put(w, "offset_uncertainty_ms", r.offsetUncertaintyMs(), 3);
            JsonNumbers.put(w, "drift_ms", r.driftMs(), 3);
            JsonNumbers.put(w, "cpu_util", r.client().cpuUtil(), 3);
            JsonNumbers.put(w, "cpu_max", r.client().cpuMax(), 3);
            JsonNumbers.put(w, "gc_pause_max_ms", r.client().gcPauseMaxMs(), 3);
            w.set("scheduling_delay_ms", distribution(r.client().schedulingDelayMs(), 3));
            if (r.problem() == null) w.putNull("problem");
            else w.put("problem", r.problem());
        }
        return o;
    }

    private static List<WorkerRun> workers(JsonNode o) {
        List<WorkerRun> runs = new ArrayList<>();
        for (JsonNode w : o.path("each")) {
            runs.add(new WorkerRun(
                    w.path("worker").asInt(),
                    w.path("address").asText(),
                    w.path("records").asLong(),
                    num(w.path("offset_ms")),
                    num(w.path("offset_uncertainty_ms")),
                    num(w.path("drift_ms")),
                    new ClientHealth.Observed(
                            distribution(w.path("scheduling_delay_ms")),
                            num(w.path("cpu_util")),
                            num(w.path("cpu_max")),
                            num(w.path("gc_pause_max_ms"))),
                    w.path("problem").isTextual() ? w.path("problem").asText() : null));
        }
        return runs;
    }

    private static ObjectNode client(ClientHealth c, Summary s) {
        ObjectNode o = MAPPER.createObjectNode();
        o.set("send_lag_ms", distribution(s.distribution(Metric.SEND_LAG_MS), 3));
        o.set("scheduling_delay_ms", distribution(c.schedulingDelayMs(), 3));
        JsonNumbers.put(o, "timing_error_ms", c.timingErrorMs(), 3);
        JsonNumbers.put(o, "cpu_util", c.cpuUtil(), 3);
        JsonNumbers.put(o, "cpu_max", c.cpuMax(), 3);
        JsonNumbers.put(o, "gc_pause_max_ms", c.gcPauseMaxMs(), 3);
        o.put("client_bound", c.clientBound());
        ArrayNode w = o.putArray("warnings");
        c.warnings().forEach(w::add);
        return o;
    }
}
