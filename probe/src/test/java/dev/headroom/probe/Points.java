package dev.headroom.probe;

import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.Workload;
import java.time.Duration;

/**
 * Load points for the probe's tests, by the fields a test varies (the prompts come from the WorkloadSpec given to run).
 */
public final class Points {
    private Points() {}

    /** @param duration null to stop by count */
    public static MeasurementRequest of(
            LoadModel load,
            Duration think,
            int maxConcurrency,
            Duration duration,
            int requests,
            Duration warmup,
            int warmupRequests,
            Duration ramp,
            Duration grace,
            long seed) {
        RunLength length = new RunLength(
                requests,
                duration == null ? Double.POSITIVE_INFINITY : s(duration),
                warmupRequests,
                s(ramp),
                s(warmup),
                s(grace));
        return new MeasurementRequest(load, Workload.fixed(1, 1), length, seed, null, s(think), maxConcurrency);
    }

    private static double s(Duration d) {
        return d.toNanos() / 1e9;
    }
}
