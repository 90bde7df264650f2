package dev.headroom.model;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The metrics of one load point, accumulated as its requests finish: each record is read once, its values go into
 * HdrHistograms and counters, and nothing of it is kept, so a run of any length uses the same memory. Definitions
 * are {@link Metrics}'; {@link #summary()} may be called at any time (a snapshot). Thread-safe.
 */
public final class MetricsRecorder implements Consumer<RequestRecord> {
    private final boolean openLoop;
    private final boolean series;
    private final List<Slo> slos;
    private final List<Slo> withoutItl;
    private final Map<Metric, Histogram> h = new EnumMap<>(Metric.class);
    private long completed, failed, incomplete, warmup, clientErrors, good, oslShort;
    private long cacheReporting, cachePrompt, cached, cacheHits, opened, reused;
    private long requestedIsl, requestedIslCount;
    private long outputTokens, totalTokens, goodTokens;
    private long windowStart = Long.MAX_VALUE, windowEnd = Long.MIN_VALUE;
    private final Map<String, Long> errors = new TreeMap<>();
    /** Width of the intervals of the run's time series ({@link #intervals}). */
    public static final long INTERVAL_MICROS = 10_000_000;

    private static final List<Metric> SERIES = Metric.SERIES;
    private final TreeMap<Long, Map<Metric, Histogram>> open = new TreeMap<>();
    private final TreeMap<Long, byte[][]> closed = new TreeMap<>();
    private Map<Metric, Histogram> current;
    private final TreeMap<Long, Histogram> itlSeries = new TreeMap<>();

    public MetricsRecorder(boolean openLoop, List<Slo> slos) {
        this(openLoop, slos, true);
    }

    /** Without {@code series}, no time series is kept ({@link #intervals} is empty): a summary alone costs less. */
    MetricsRecorder(boolean openLoop, List<Slo> slos, boolean series) {
        this.series = series;
        this.openLoop = openLoop;
        this.slos = List.copyOf(slos);
        this.withoutItl =
                this.slos.stream().filter(o -> o.metric() != SloMetric.ITL).toList();
        for (Metric k : Metric.values()) h.put(k, new Histogram(3));
    }

    /** Counts one finished request. */
    @Override
    public void accept(RequestRecord r) {
        accept(r, true);
    }

    /**
     * Counts one finished request; without {@code itl} its chunk times are not every chunk's (a record read back
     * without them): it adds no inter-token gap, and an itl SLO does not judge it.
     */
    public synchronized void accept(RequestRecord r, boolean itl) {
        if (r.connection() == RequestRecord.Connection.NEW) opened++;
        if (r.connection() == RequestRecord.Connection.REUSED) reused++;
        if (r.outcome() == RequestRecord.Outcome.CLIENT_ERROR) {
            clientErrors++;
            return;
        }
        if (r.warmup()) {
            warmup++;
            return;
        }
        switch (r.outcome()) {
            case INCOMPLETE -> {
                incomplete++;
                return;
            }
            case FAILED -> {
                failed++;
                errors.merge(r.failure().kind().wireName(), 1L, Long::sum);
            }
            case COMPLETED -> completed++;
            case CLIENT_ERROR -> throw new IllegalStateException("counted above");
        }
        long origin = Metrics.micros(Metrics.origin(r, openLoop));
        windowStart = Math.min(windowStart, origin);
        windowEnd = Math.max(windowEnd, Metrics.micros(r.endNanos()));
        // Without the wait for a slot under --max-concurrency: that wait is the cap's, not the client's lateness.
        record(
                Metric.SEND_LAG_MS,
                Metrics.micros(r.sentNanos()) - Metrics.micros(r.intendedNanos()) - Metrics.micros(r.slotWaitNanos()));
        if (!r.succeeded()) return;
        current = series ? interval(Math.floorDiv(Metrics.micros(r.endNanos()), INTERVAL_MICROS)) : null;
        outputTokens += r.completionTokens();
        totalTokens += r.completionTokens() + r.promptTokens();
        if (r.requestedOutputTokens() > 0 && r.completionTokens() < r.requestedOutputTokens()) oslShort++;
        record(Metric.ISL, r.promptTokens());
        if (r.requestedInputTokens() > 0) {
            requestedIsl += r.requestedInputTokens();
            requestedIslCount++;
        }
        if (r.cachedTokens() >= 0) {
            cacheReporting++;
            cachePrompt += r.promptTokens();
            cached += r.cachedTokens();
            if (r.cachedTokens() > Metrics.CACHE_HIT_TOKENS) cacheHits++;
        }
        record(Metric.OSL, r.completionTokens());
        SloJudge.valuesMicros(SloMetric.TTFT, r, openLoop, v -> series(Metric.TTFT_MS, v));
        SloJudge.valuesMicros(SloMetric.TTFT_FROM_SEND, r, openLoop, v -> record(Metric.TTFT_FROM_SEND_MS, v));
        SloJudge.valuesMicros(SloMetric.E2E, r, openLoop, v -> series(Metric.E2E_MS, v));
        SloJudge.valuesMicros(SloMetric.TPOT, r, openLoop, v -> series(Metric.TPOT_MS, v));
        if (itl) SloJudge.valuesMicros(SloMetric.ITL, r, openLoop, v -> series(Metric.ITL_MS, v));
        if (Metrics.isGood(r, openLoop, itl ? slos : withoutItl)) {
            good++;
            goodTokens += r.completionTokens();
        }
    }

    /**
     * Takes the pooled inter-token gaps (µs) from elsewhere — a run's histograms.hlog, when its chunk times were not
     * kept — in place of those counted here.
     */
    public synchronized void useItl(Histogram gapsMicros) {
        h.put(Metric.ITL_MS, gapsMicros.copy());
    }

    /** As {@link #useItl}, for the time series: the itl of the interval starting at {@code startMicros}. */
    public synchronized void useItl(long startMicros, Histogram gapsMicros) {
        itlSeries.put(Math.floorDiv(startMicros, INTERVAL_MICROS), gapsMicros.copy());
    }

    /** Records into the run's histogram and into the interval the request ended in. */
    private void series(Metric key, long value) {
        record(key, value);
        if (current != null) current.get(key).recordValue(Math.max(0, value));
    }

    /**
     * The live histograms of interval {@code k}. Intervals ended more than one interval before the newest are kept
     * compressed (a few hundred bytes each), so the series costs kilobytes an hour, not a histogram per interval.
     */
    private Map<Metric, Histogram> interval(long k) {
        Map<Metric, Histogram> live = open.get(k);
        if (live != null) return live;
        live = new EnumMap<>(Metric.class);
        byte[][] packed = closed.remove(k);
        for (int i = 0; i < SERIES.size(); i++) {
            live.put(SERIES.get(i), packed == null ? new Histogram(3) : unpack(packed[i]));
        }
        open.put(k, live);
        long newest = open.lastKey();
        for (Long old : List.copyOf(open.headMap(newest - 1).keySet())) {
            if (old != k) closed.put(old, pack(open.remove(old))); // k is about to be recorded into: packed later
        }
        return live;
    }

    private static Histogram unpack(byte[] packed) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(packed), 0);
        } catch (DataFormatException e) {
            throw new IllegalStateException("an interval this recorder packed does not unpack", e);
        }
    }

    private static byte[][] pack(Map<Metric, Histogram> histograms) {
        byte[][] out = new byte[SERIES.size()][];
        for (int i = 0; i < SERIES.size(); i++) {
            Histogram h = histograms.get(SERIES.get(i));
            ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int n = h.encodeIntoCompressedByteBuffer(b);
            out[i] = Arrays.copyOf(b.array(), n);
        }
        return out;
    }

    /**
     * The run's time series: for each {@value #INTERVAL_MICROS}-µs interval of the run's clock in which measured
     * requests completed, the ttft, itl, tpot and e2e of those requests (µs; every value of a request in the interval
     * its response ended in), in time order.
     */
    public synchronized List<Interval> intervals() {
        TreeMap<Long, Map<Metric, Histogram>> all = new TreeMap<>();
        closed.forEach((k, packed) -> {
            Map<Metric, Histogram> m = new EnumMap<>(Metric.class);
            for (int i = 0; i < SERIES.size(); i++) {
                m.put(SERIES.get(i), unpack(packed[i]));
            }
            all.put(k, m);
        });
        open.forEach((k, m) -> {
            Map<Metric, Histogram> copy = new EnumMap<>(Metric.class);
            m.forEach((key, h) -> copy.put(key, h.copy()));
            all.put(k, copy);
        });
        itlSeries.forEach((k, h) -> {
            if (all.containsKey(k)) all.get(k).put(Metric.ITL_MS, h.copy());
        });
        List<Interval> out = new ArrayList<>();
        all.forEach((k, m) -> out.add(new Interval(k * INTERVAL_MICROS, (k + 1) * INTERVAL_MICROS, m)));
        return out;
    }

    /** One interval of the run's time series: its bounds on the run's clock (µs) and its histograms (µs). */
    public record Interval(long startMicros, long endMicros, Map<Metric, Histogram> histograms) {}

    private void record(Metric key, long value) {
        h.get(key).recordValue(Math.max(0, value));
    }

    /** The metrics of every request counted so far. */
    public synchronized Summary summary() {
        double window = windowEnd > windowStart ? (windowEnd - windowStart) / 1e6 : 0;
        Map<Metric, Histogram> copies = new EnumMap<>(Metric.class);
        Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
        for (Metric k : Metric.values()) {
            copies.put(k, h.get(k).copy());
            d.put(k, Distribution.of(h.get(k), k.isTime() ? 1e-3 : 1));
        }
        long ended = completed + failed;
        double errorRate = ended == 0 ? 0 : (double) failed / ended;
        double attainment = ended == 0 ? 0 : (double) good / ended;
        List<Summary.SloResult> results = new ArrayList<>();
        boolean pass = true;
        for (Slo slo : slos) {
            if (slo.metric().perSession()) continue; // judged by SessionRecorder over whole sessions
            SloJudge.Verdict v = slo.isRate()
                    ? SloJudge.rate(slo, failed, ended)
                    : SloJudge.latency(slo, h.get(slo.metric().distributionKey()));
            results.add(v.result());
            pass &= v.met();
        }
        return new Summary(
                new Summary.Counts(completed, failed, incomplete, warmup, clientErrors),
                window,
                d,
                per(outputTokens, window),
                per(completed, window),
                per(totalTokens, window),
                per(good, window),
                per(goodTokens, window),
                attainment,
                errorRate,
                List.copyOf(results),
                pass,
                new TreeMap<>(errors),
                oslShort,
                copies,
                new Summary.Cache(cacheReporting, cachePrompt, cached, cacheHits),
                new Summary.Connections(opened, reused, clientErrors),
                requestedIslCount == 0 ? Double.NaN : (double) requestedIsl / requestedIslCount);
    }

    private static double per(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }
}
