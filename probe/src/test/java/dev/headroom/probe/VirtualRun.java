package dev.headroom.probe;

import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Share;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import java.util.function.ToLongFunction;
import okhttp3.OkHttpClient;

/**
 * One load point driven by the real {@link LoadDriver} on a {@link VirtualTicker} against a {@link ScriptedSender}:
 * its schedules, to the nanosecond, in milliseconds of real time.
 */
record VirtualRun(List<RequestRecord> records, List<ScriptedSender.Send> sends, int peakInFlight) {
    static final long MS = 1_000_000;

    /** Runs {@code point}; every request takes {@code durationNanos}, its headers at once. */
    static VirtualRun of(MeasurementRequest point, long durationNanos) throws Exception {
        return of(point, i -> 0, i -> durationNanos);
    }

    /** Runs {@code point}; request {@code i}'s headers come after {@code headers(i)} ns, its end after duration(i). */
    static VirtualRun of(MeasurementRequest point, LongUnaryOperator headers, LongUnaryOperator duration)
            throws Exception {
        return of(point, Share.ALL, headers, duration);
    }

    /** Runs {@code share} of {@code point}; every request takes {@code durationNanos}, its headers at once. */
    static VirtualRun of(MeasurementRequest point, Share share, long durationNanos) throws Exception {
        return of(point, share, i -> 0, i -> durationNanos);
    }

    private static VirtualRun of(
            MeasurementRequest point, Share share, LongUnaryOperator headers, LongUnaryOperator duration)
            throws Exception {
        try (VirtualTicker ticker = new VirtualTicker()) {
            return ticker.run(() -> {
                RunClock clock = new RunClock(ticker);
                ScriptedSender sender = new ScriptedSender(clock, headers, duration);
                LoadDriver driver = new LoadDriver(
                        sender, new NumberedPrompts(), null, point, share, clock, r -> {}, () -> {}, true);
                List<RequestRecord> records = driver.run();
                return new VirtualRun(records, sender.sends(), driver.peakInFlight());
            });
        }
    }

    /** Each record's {@code field}, in index order. */
    long[] each(ToLongFunction<RequestRecord> field) {
        return records.stream().mapToLong(field).toArray();
    }

    /** Prompts that are only their index: the driver's schedule is under test, not the prompts. */
    private static final class NumberedPrompts implements RequestSource {
        @Override
        public void calibrate(OkHttpClient http, Target target) {}

        @Override
        public String inputLength() {
            return "fixed";
        }

        @Override
        public PreparedRequest prepare(long index, SplittableRandom rng) {
            return new PreparedRequest(index, new byte[0], 10, 2, -1);
        }

        @Override
        public PreparedRequest calibrationRequest() {
            return prepare(-1, null);
        }
    }
}
