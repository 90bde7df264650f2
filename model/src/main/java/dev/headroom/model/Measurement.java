package dev.headroom.model;

import java.util.List;

/**
 * Every request of one load point, as measured.
 *
 * @param records   one per request, in start order
 * @param elapsedNanos wall (or virtual) time from the first intended start to the last end
 * @param simulated true when produced by the simulator's virtual clock rather than a real server
 * @param seed      the seed the run used
 */
public record Measurement(MeasurementRequest request, List<RequestRecord> records, long elapsedNanos,
                          boolean simulated, long seed) {
    public Measurement {
        records = List.copyOf(records);
    }
}
