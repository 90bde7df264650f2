package dev.headroom.reports;

import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code histograms.hlog}: HdrHistogram's versioned interval-log format, one tagged interval per metric
 * (tag = the summary key, e.g. {@code ttft_ms}; values in µs for times, tokens for lengths). Logs of several
 * runs can be merged with HdrHistogram's own tools.
 */
public final class HistogramLog {
    private HistogramLog() {}

    public static void write(
            Path file, Map<String, Histogram> histograms, long startEpochMillis, double windowSeconds) {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment("headroom probe histograms: times in microseconds, lengths in tokens");
            w.outputStartTime(startEpochMillis);
            w.setBaseTime(startEpochMillis);
            w.outputLegend();
            for (var e : histograms.entrySet()) {
                Histogram h = e.getValue().copy();
                h.setTag(e.getKey());
                h.setStartTimeStamp(startEpochMillis);
                h.setEndTimeStamp(startEpochMillis + Math.round(windowSeconds * 1000));
                w.outputIntervalHistogram(h);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** A histograms.hlog read back: its start time and each tagged histogram (the last of a tag wins). */
    public record Read(long startEpochMillis, Map<String, Histogram> histograms) {}

    /** Reads {@code file}; a damaged log is bad input, named. */
    public static Read read(Path file) {
        Map<String, Histogram> out = new LinkedHashMap<>();
        try (HistogramLogReader r = new HistogramLogReader(file.toFile())) {
            while (r.hasNext()) {
                if (r.nextIntervalHistogram() instanceof Histogram h) out.put(h.getTag(), h);
            }
            return new Read(Math.round(r.getStartTimeSec() * 1000), out);
        } catch (IOException | RuntimeException e) {
            throw new BadInputException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
