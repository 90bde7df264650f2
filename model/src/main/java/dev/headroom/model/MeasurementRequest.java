package dev.headroom.model;

/** One load point to measure: the load, the workload, how long, and the seed that makes it reproducible. */
public record MeasurementRequest(LoadModel load, Workload workload, RunLength length, long seed) {
    public MeasurementRequest {
        if (load == null || workload == null || length == null) {
            throw new IllegalArgumentException("a measurement needs a load, a workload and a run length");
        }
    }
}
