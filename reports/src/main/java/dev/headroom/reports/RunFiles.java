package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.MetricsRecorder;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunLength;
import dev.headroom.model.Slo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The files of a run directory, written the same way by every command that measures a load point. */
public final class RunFiles {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RunFiles() {}

    /**
     * What one load point measured: histograms.hlog and, last, summary.json (its presence marks the point finished,
     * e.g. for a resumed search). requests.jsonl and requests.csv are the caller's: they are written as requests
     * finish.
     */
    public static void writeResults(
            Path dir, ProbeReport report, long startEpochMillis, List<MetricsRecorder.Interval> intervals) {
        HistogramLog.write(
                dir.resolve("histograms.hlog"),
                report.summary().histograms(),
                startEpochMillis,
                report.summary().windowSeconds(),
                intervals);
        write(dir.resolve("summary.json"), SummaryJson.write(report));
    }

    private static void writeConfig(Path dir, Map<String, Object> config) {
        try {
            write(dir.resolve("config.yaml"), YAML.writeValueAsString(config));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * config.yaml: what a load point was asked to do, the same sections for every command (never a secret).
     *
     * @param target    the target's section (URL, model, API; how the key was given, never the key)
     * @param simulator the simulated server's section, or null for a real server
     * @param expectsCachedPrompts whether the workload shares prompt text (a shared prefix, a dataset)
     */
    public static void writeConfig(
            Path dir,
            String command,
            String toolVersion,
            String startedAt,
            MeasurementRequest point,
            String promptSalt,
            Map<String, Object> target,
            Object simulator,
            String workload,
            boolean expectsCachedPrompts,
            List<Slo> slos) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("tool", Map.of("name", "headroom", "version", toolVersion));
        c.put("command", command);
        c.put("started_at", startedAt);
        c.put("seed", point.seed());
        // The command's salt; each load point's prompts are made from it and the point's number (summary.json).
        if (promptSalt != null) c.put("prompt_salt", promptSalt);
        c.put("target", target);
        if (simulator != null) c.put("simulator", simulator);
        c.put("load", loadSection(point.load(), point.thinkTimeSeconds(), point.maxConcurrency()));
        c.put("workload", workload);
        // Whether the workload shares text across prompts (a shared prefix, a dataset): then cached prompts are no
        // warning. Kept here so that a summary rebuilt from requests.jsonl warns as the run would have.
        c.put("expects_cached_prompts", expectsCachedPrompts);
        RunLength length = point.length();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("duration_s", length.timed() ? length.maxSeconds() : null);
        r.put("requests", length.requests());
        r.put("warmup_s", length.warmupSeconds());
        r.put("warmup_requests", length.warmupRequests());
        r.put("ramp_s", length.rampSeconds());
        r.put("grace_s", length.graceSeconds());
        c.put("run", r);
        c.put("slo", slos.stream().map(Slo::text).toList());
        writeConfig(dir, c);
    }

    /** config.yaml's {@code load}: closed (users, think time) or open (rate, arrivals, cap). */
    public static Map<String, Object> loadSection(LoadModel load, double thinkTimeSeconds, int maxConcurrency) {
        Map<String, Object> l = new LinkedHashMap<>();
        switch (load) {
            case LoadModel.Closed cl -> {
                l.put("mode", "closed");
                l.put("concurrency", cl.concurrency());
                l.put("think_time_s", thinkTimeSeconds);
            }
            case LoadModel.Open o -> {
                l.put("mode", "open");
                l.put("rate", o.ratePerSecond());
                l.put("arrival", o.label());
                l.put("max_concurrency", maxConcurrency);
            }
        }
        return l;
    }

    public static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    public static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Write, then rename: a crash never leaves a half-written file. */
    public static void writeAtomically(Path file, String text) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
