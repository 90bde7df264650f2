package dev.headroom.optimizer;

import dev.headroom.model.Measurement;
import dev.headroom.model.RunLength;


/**
 * How each probe of a search starts, so short probes measure the steady state rather than a start-up burst:
 * closed-loop users are started evenly over one request's duration (learnt from the first probe: the median
 * e2e at the lowest load), so they do not send, prefill and finish in lockstep; and the first wave (one request
 * per user; open loop, two seconds of arrivals) is warm-up. A closed-loop probe also measures at least three
 * waves (3 × users requests), so a queue that builds slowly past the boundary has time to show.
 */
public final class ProbeShape {
    private final SearchSpec spec;
    private double rampSeconds;

    public ProbeShape(SearchSpec spec) {
        this.spec = spec;
    }

    /** The run length of a probe at {@code load}. */
    public RunLength forLoad(double load) {
        int users = (int) Math.round(load);
        if (!spec.integerLoad()) return spec.perProbe().withWarmup((int) Math.ceil(load * 2));
        RunLength base = spec.perProbe();
        return new RunLength(Math.max(base.requests(), 3 * users), base.maxSeconds(), users, rampSeconds);
    }

    /** Learns the ramp from the first measurement that completed any request. */
    public void learn(Measurement m) {
        if (rampSeconds > 0) return;
        double[] e2e = m.records().stream().filter(r -> r.succeeded() && !r.warmup() && r.lastTokenNanos() >= 0)
                .mapToDouble(r -> (r.lastTokenNanos() - r.sentNanos()) / 1e9).sorted().toArray();
        if (e2e.length > 0) rampSeconds = e2e[e2e.length / 2];
    }

    public double rampSeconds() {
        return rampSeconds;
    }


}
