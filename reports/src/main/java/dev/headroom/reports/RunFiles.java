package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.LoadModel;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;

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
     * What one load point measured: requests.csv, histograms.hlog and, last, summary.json (its presence marks the
     * point finished, e.g. for a resumed search). requests.jsonl is the caller's: it is written as requests finish.
     */
    public static void writeResults(Path dir, List<RequestRecord> records, ProbeReport report, long startEpochMillis) {
        RequestsCsv.write(dir.resolve("requests.csv"), records);
        HistogramLog.write(dir.resolve("histograms.hlog"), report.summary().histograms(), startEpochMillis,
                report.summary().windowSeconds());
        write(dir.resolve("summary.json"), SummaryJson.write(report));
    }

    /** config.yaml: what was asked for, as a mapping of sections (never a secret). */
    public static void writeConfig(Path dir, Map<String, Object> config) {
        try {
            write(dir.resolve("config.yaml"), YAML.writeValueAsString(config));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
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
