package dev.headroom.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Something that can measure a load point: the real HTTP probe, or the simulator's virtual-time engine.
 * The optimizer depends only on this interface; the CLI decides which implementation it gets.
 */
public interface Measurer {

    /** Runs one load point and returns every request's record, in index order. */
    default Measurement measure(MeasurementRequest request) {
        List<RequestRecord> records = Collections.synchronizedList(new ArrayList<>());
        Measurement m = measure(request, records::add);
        List<RequestRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(RequestRecord::index));
        return m.withRecords(sorted);
    }

    /**
     * Runs one load point, handing each finished request to {@code sink} as it ends, and keeps none of them: the
     * returned measurement has no records, so memory does not grow with the run; the caller keeps what it needs
     * (a {@link MetricsRecorder}, a file, a list).
     */
    Measurement measure(MeasurementRequest request, Consumer<RequestRecord> sink);
}
