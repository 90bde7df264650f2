package dev.headroom.reports;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Metric;
import dev.headroom.model.MetricsRecorder;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code histograms.hlog}: HdrHistogram's versioned interval-log format: the run's time series (ttft, itl, tpot and
 * e2e per 10-s interval of the run, tagged {@code interval.ttft_ms} …), then one histogram per metric over the whole
 * window (tag = the summary key, e.g. {@code ttft_ms}; values in µs for times, tokens for lengths). Logs of several
 * runs can be merged with HdrHistogram's own tools.
 */
public final class HistogramLog {
    private HistogramLog() {}

    /** Prefix of the tags of the run's time series: {@code interval.ttft_ms}, one histogram per interval. */
    public static final String INTERVAL = "interval.";

    /**
     * Writes the run's time series (each interval of {@code intervals}, tagged {@value #INTERVAL} + key, stamped with
     * its bounds) and then the whole window's histograms (tagged with their summary key).
     */
    public static void write(
            Path file,
            Map<Metric, Histogram> histograms,
            long startEpochMillis,
            double windowSeconds,
            List<MetricsRecorder.Interval> intervals) {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment("headroom probe histograms: times in microseconds, lengths in tokens");
            w.outputStartTime(startEpochMillis);
            w.setBaseTime(startEpochMillis);
            w.outputLegend();
            for (MetricsRecorder.Interval iv : intervals) {
                for (var e : iv.histograms().entrySet()) {
                    if (e.getValue().getTotalCount() == 0) continue;
                    Histogram h = e.getValue().copy();
                    h.setTag(INTERVAL + e.getKey().key());
                    h.setStartTimeStamp(startEpochMillis + iv.startMicros() / 1000);
                    h.setEndTimeStamp(startEpochMillis + iv.endMicros() / 1000);
                    w.outputIntervalHistogram(h);
                }
            }
            for (var e : histograms.entrySet()) {
                Histogram h = e.getValue().copy();
                h.setTag(e.getKey().key());
                h.setStartTimeStamp(startEpochMillis);
                h.setEndTimeStamp(startEpochMillis + Math.round(windowSeconds * 1000));
                w.outputIntervalHistogram(h);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A histograms.hlog read back: its start time, each summary key's whole-window histogram, and the time series:
     * per key, its intervals in time order (seconds after the start).
     */
    public record Read(long startEpochMillis, Map<Metric, Histogram> histograms, Map<Metric, List<Slice>> series) {}

    /** One interval of a time series: its bounds in seconds after the log's start, and its histogram (µs). */
    public record Slice(double startS, double endS, Histogram histogram) {}

    /** Reads {@code file}; a damaged log is bad input, named. */
    public static Read read(Path file) {
        Map<Metric, Histogram> out = new EnumMap<>(Metric.class);
        List<Histogram> slices = new ArrayList<>();
        try (HistogramLogReader r = new HistogramLogReader(file.toFile())) {
            while (r.hasNext()) {
                if (!(r.nextIntervalHistogram() instanceof Histogram h)) continue;
                if (h.getTag() != null && h.getTag().startsWith(INTERVAL)) slices.add(h);
                else if (Metric.ofKey(h.getTag()) != null) out.put(Metric.ofKey(h.getTag()), h); // others: not ours
            }
            long start = Math.round(r.getStartTimeSec() * 1000);
            Map<Metric, List<Slice>> series = new EnumMap<>(Metric.class);
            for (Histogram h : slices) {
                Metric m = Metric.ofKey(h.getTag().substring(INTERVAL.length()));
                if (m == null) continue;
                series.computeIfAbsent(m, k -> new ArrayList<>())
                        .add(new Slice(
                                (h.getStartTimeStamp() - start) / 1000.0, (h.getEndTimeStamp() - start) / 1000.0, h));
            }
            return new Read(start, out, series);
        } catch (IOException | RuntimeException e) {
            throw new BadInputException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
