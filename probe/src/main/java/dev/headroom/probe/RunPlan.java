package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;

import java.time.Duration;

/**
 * How one load point is driven and for how long.
 *
 * @param thinkTime      closed loop: pause between a user's response and its next request
 * @param maxConcurrency open loop: cap on requests in flight (0 = none); time waited for a slot is reported
 * @param duration       measurement length after warm-up, or null to stop by count
 * @param requests       measured requests to send, or 0 to stop by time
 * @param warmup         warm-up time before measurement (requests sent in it are excluded from every metric)
 * @param warmupRequests warm-up by count instead: the first N requests
 * @param ramp           closed loop: users start evenly over this time; open loop: the rate rises linearly over it
 * @param grace          how long in-flight requests may finish after the last send; later ones are cut off and
 *                       counted as incomplete
 */
public record RunPlan(LoadModel load, Duration thinkTime, int maxConcurrency, Duration duration, int requests,
                      Duration warmup, int warmupRequests, Duration ramp, Duration grace, long seed) {
    public RunPlan {
        if (load == null) throw new IllegalArgumentException("a load model is required");
        if (duration == null && requests <= 0) {
            throw new BadInputException("give {duration} or {requests} to say when the probe stops");
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new BadInputException("{duration} must be > 0, got " + duration);
        }
        if (requests < 0) throw new BadInputException("{requests} must be >= 0, got " + requests);
        if (maxConcurrency < 0) throw new BadInputException("{max-concurrency} must be >= 0, got " + maxConcurrency);
        if (maxConcurrency > 0 && load instanceof LoadModel.Closed) {
            throw new BadInputException("{max-concurrency} caps an open-loop {rate}; with {concurrency} the "
                    + "number of users is already the cap");
        }
        if (warmupRequests < 0) throw new BadInputException("{warmup-requests} must be >= 0, got " + warmupRequests);
        for (Duration d : new Duration[] {thinkTime, warmup, ramp, grace}) {
            if (d == null || d.isNegative()) throw new BadInputException("durations must be >= 0, got " + d);
        }
    }

    public boolean openLoop() {
        return load instanceof LoadModel.Open;
    }

    /** Most requests in flight at once: the users, the cap, or an estimate for an uncapped open loop. */
    public int expectedConnections() {
        return switch (load) {
            case LoadModel.Closed c -> c.concurrency();
            case LoadModel.Open o -> maxConcurrency > 0 ? maxConcurrency : (int) Math.min(4096, Math.ceil(o.ratePerSecond() * 30));
        };
    }
}
