package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Metric;
import dev.headroom.model.MetricsRecorder;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.UserStart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * A load point's summary.json and histograms.hlog made again from what it wrote as it ran — config.yaml first,
 * requests.jsonl line by line — for a run that was killed, ran out of memory or crashed before it wrote them, or to
 * check one. Every metric is recomputed from the requests; itl needs every chunk's time ({@code --chunk-times}), or
 * else the run's own histograms.hlog. What only the finished run knew (how lengths were hit, the connections, the
 * client's scheduling delay, CPU and GC, the server's metrics) is taken from its summary.json when there is one, and
 * otherwise said to be unknown.
 */
public final class SummaryRebuild {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern GAMMA = Pattern.compile("gamma:([0-9.]+)");
    static final String UNKNOWN = "unknown (rebuilt from requests.jsonl)";

    private SummaryRebuild() {}

    /**
     * What was rebuilt.
     *
     * @param requests   lines of requests.jsonl read
     * @param itl        where itl came from: every chunk's time, the run's histograms.hlog, or nowhere
     * @param described  whether the run's description came from an existing summary.json (else config.yaml)
     */
    public record Rebuilt(ProbeReport report, long requests, ItlSource itl, boolean described) {}

    /** Where a rebuilt summary's inter-token latencies came from. */
    public enum ItlSource {
        CHUNK_TIMES("from every chunk's time"),
        HISTOGRAM_LOG("from the run's histograms.hlog (its lines have no chunk times)"),
        NONE("not rebuilt: the lines have no chunk times (measure with --chunk-times)");

        private final String said;

        ItlSource(String said) {
            this.said = said;
        }

        /** How a user is told where itl came from. */
        public String said() {
            return said;
        }
    }

    /** {@code dir} itself when it is a load point, else its subdirectories that are (a sweep's or search's points). */
    public static List<Path> points(Path dir) {
        if (Files.isRegularFile(dir.resolve("requests.jsonl"))) return List.of(dir);
        if (!Files.isDirectory(dir)) throw new BadInputException("rebuild: " + dir + " is not a directory");
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> found = s.filter(p -> Files.isRegularFile(p.resolve("requests.jsonl")))
                    .sorted()
                    .toList();
            if (found.isEmpty()) {
                throw new BadInputException("rebuild: " + dir + " holds no requests.jsonl, nor does any directory in "
                        + "it; valid: a probe's run directory, or a sweep's or search's");
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Rebuilds {@code dir}'s summary from its files and writes summary.json and histograms.hlog there. */
    public static Rebuilt rebuild(Path dir) {
        Path jsonl = dir.resolve("requests.jsonl");
        Path config = dir.resolve("config.yaml");
        if (!Files.isRegularFile(jsonl) || !Files.isRegularFile(config)) {
            throw new BadInputException(
                    dir + " has no " + (Files.isRegularFile(config) ? "requests.jsonl" : "config.yaml")
                            + "; valid: the directory of one load point (a probe's run directory, a sweep's or "
                            + "search's point)");
        }
        JsonNode c = yaml(config);
        LoadModel load = load(config, c.path("load"));
        List<Slo> slos = new ArrayList<>();
        for (JsonNode s : c.path("slo")) slos.add(Slo.parse(s.asText()));
        Path summaryFile = dir.resolve("summary.json");
        ProbeReport old = Files.isRegularFile(summaryFile)
                ? ResultFiles.probe(summaryFile).report()
                : null;
        Path hlog = dir.resolve("histograms.hlog");
        HistogramLog.Read logged = Files.isRegularFile(hlog) ? HistogramLog.read(hlog) : null;

        MetricsRecorder metrics = new MetricsRecorder(load instanceof LoadModel.Open, slos);
        RequestsJsonl.ChunkTimes chunks = RequestsJsonl.records(jsonl, r -> metrics.accept(r.record(), r.everyChunk()));
        ItlSource itl = ItlSource.CHUNK_TIMES;
        if (chunks.firstAndLastOnly() > 0) {
            Histogram gaps = logged == null ? null : logged.histograms().get(Metric.ITL_MS);
            if (gaps != null && old != null) {
                metrics.useItl(gaps);
                for (HistogramLog.Slice slice : logged.series().getOrDefault(Metric.ITL_MS, List.of())) {
                    metrics.useItl(Math.round(slice.startS() * 1e6), slice.histogram());
                }
            }
            itl = gaps != null && old != null ? ItlSource.HISTOGRAM_LOG : ItlSource.NONE;
        }
        Summary summary = metrics.summary();

        boolean embedded = c.hasNonNull("simulator");
        RunInfo run = old != null ? old.run() : described(c, load);
        ClientHealth.Observed observed = old == null
                ? ClientHealth.Observed.NONE
                : new ClientHealth.Observed(
                        old.client().schedulingDelayMs(),
                        old.client().cpuUtil(),
                        old.client().cpuMax(),
                        old.client().gcPauseMaxMs());
        ClientHealth health = ClientHealth.assess(summary, load, observed, embedded);
        List<String> warnings = MeasurementWarnings.of(
                summary, run.inputLength(), c.path("expects_cached_prompts").asBoolean(false));
        // How users started: as the finished run said, else as config.yaml's ramp (a cycle's basis is then unknown).
        double ramp = c.at("/run/ramp_s").asDouble(0);
        UserStart users = old != null
                ? old.userStart()
                : ramp > 0 ? new UserStart(UserStart.How.RAMP, ramp, "") : new UserStart(UserStart.How.AT_ONCE, 0, "");
        ProbeReport report =
                new ProbeReport(run, summary, health, old == null ? null : old.server(), warnings, null, users);

        long start = logged != null ? logged.startEpochMillis() : startMillis(run.startedAt());
        HistogramLog.write(hlog, summary.histograms(), start, summary.windowSeconds(), metrics.intervals());
        RunFiles.writeAtomically(summaryFile, SummaryJson.write(report));
        return new Rebuilt(report, chunks.complete() + chunks.firstAndLastOnly(), itl, old != null);
    }

    /** The run's description from config.yaml alone: what only the finished run learned is unknown. */
    private static RunInfo described(JsonNode c, LoadModel load) {
        JsonNode t = c.path("target"), l = c.path("load");
        return new RunInfo(
                c.at("/tool/version").asText(null),
                c.path("started_at").asText(null),
                t.path("url").asText(null),
                t.path("model").asText(UNKNOWN),
                t.path("api").asText(null),
                c.hasNonNull("simulator") ? "embedded simulator (config.yaml has its settings)" : null,
                load,
                l.path("max_concurrency").asInt(0),
                l.path("think_time_s").asDouble(0),
                c.path("workload").asText(null),
                UNKNOWN,
                c.path("seed").asLong(),
                c.path("prompt_salt").asText(null),
                null);
    }

    /** config.yaml's load: closed (concurrency) or open (rate, and the arrival kind named in its label). */
    static LoadModel load(Path file, JsonNode l) {
        String mode = l.path("mode").asText();
        if (mode.equals("closed") && l.path("concurrency").isInt())
            return new LoadModel.Closed(l.path("concurrency").asInt());
        if (mode.equals("open") && l.path("rate").isNumber()) {
            String arrival = l.path("arrival").asText();
            ArrivalProcess a = arrival.contains("constant")
                    ? new ArrivalProcess.Constant()
                    : arrival.contains("gamma")
                            ? new ArrivalProcess.Gamma(burstiness(arrival))
                            : arrival.contains("trace")
                                    ? new ArrivalProcess.Replay(new double[] {0})
                                    : new ArrivalProcess.Poisson();
            return new LoadModel.Open(l.path("rate").asDouble(), a);
        }
        throw new BadInputException(
                file + ": load " + l + " is neither closed (mode, concurrency) nor open (mode, rate)");
    }

    private static double burstiness(String label) {
        Matcher m = GAMMA.matcher(label);
        return m.find() ? Double.parseDouble(m.group(1)) : 1;
    }

    private static long startMillis(String startedAt) {
        try {
            return startedAt == null ? 0 : Instant.parse(startedAt).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }

    private static JsonNode yaml(Path f) {
        try {
            return YAML.readTree(f.toFile());
        } catch (IOException e) {
            throw new BadInputException("cannot read " + f + ": " + e.getMessage());
        }
    }
}
