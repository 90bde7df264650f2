package dev.headroom.model;

import java.util.function.Consumer;

/**
 * Something that can measure a load point: the real HTTP probe, or the simulator's virtual-time engine.
 * The optimizer depends only on this interface; the CLI decides which implementation it gets.
 */
public interface Measurer {

    /** Runs one load point and returns every request's record. */
    default Measurement measure(MeasurementRequest request) {
        return measure(request, r -> {});
    }

    /**
     * Runs one load point, handing each finished request to {@code sink} as it ends (so a caller can write it at
     * once), and returns every request's record.
     */
    Measurement measure(MeasurementRequest request, Consumer<RequestRecord> sink);
}
