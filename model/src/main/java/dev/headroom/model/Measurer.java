package dev.headroom.model;

/**
 * Something that can measure a load point: the real HTTP probe, or the simulator's virtual-time engine.
 * The optimizer depends only on this interface; the CLI decides which implementation it gets.
 */
public interface Measurer {

    /** Runs one load point and returns every request's record. */
    Measurement measure(MeasurementRequest request);
}
