package dev.headroom.optimizer;

import dev.headroom.model.Measurement;
import dev.headroom.model.RunLength;


/**
 * How each probe of a search starts, so short probes measure the steady state rather than a start-up burst:
 * closed-loop users are started evenly over one request's duration (learnt from the first probe: the median
 * e2e at the lowest load), so they do not send, prefill and finish in lockstep; and the first wave (one request
 * per user; open loop, one request lifetime — at least two seconds — of arrivals) is warm-up. A closed-loop probe
 * also measures at least three waves (3 × users requests), an open-loop one at least four request lifetimes of
 * arrivals, so a queue that builds slowly past the boundary has time to show.
 */
public final class ProbeShape {
    /** Request lifetimes (median e2e at the lowest load) an open-loop probe measures at least. */
    static final double OPEN_LOOP_LIFETIMES = 4;
    private final SearchSpec spec;
    private double rampSeconds;

    public ProbeShape(SearchSpec spec) {
        this.spec = spec;
    }

    /** The run length of a probe at {@code load}. */
    public RunLength forLoad(double load) {
        int users = (int) Math.round(load);
        if (!spec.integerLoad()) {
            // Open loop: a queue that builds slowly near capacity shows only over several request lifetimes. A probe of
            // 200 requests at 40 req/s lasts one e2e of a 256-token answer, and reads 11 % above the sustained capacity.
            RunLength base = spec.perProbe();
            int warmup = (int) Math.ceil(load * Math.max(2, rampSeconds));
            int requests = (int) Math.max(base.requests(), Math.ceil(load * OPEN_LOOP_LIFETIMES * rampSeconds));
            return new RunLength(requests, base.maxSeconds(), warmup, 0);
        }
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

    /**
     * Ends a probe early once its verdict is statistically certain: some SLO's margin is above zero by more than
     * 1.96 standard errors (a sure fail), or every SLO's is below zero by that much (a sure pass) — each after
     * enough requests for its statistic to exist (at least 30, and 2 ÷ (1 − q) for a q-percentile). None for
     * max-goodput.
     */
    public dev.headroom.model.MeasurementRequest.StopRule stopRule() {
        // Goodput is estimated from the whole probe; a pass/fail verdict does not settle it.
        if (spec.objective() == SearchSpec.Objective.MAX_GOODPUT) return null;
        boolean open = !spec.integerLoad();
        return records -> {
            boolean allPass = true;
            for (dev.headroom.model.Slo slo : spec.slos()) {
                Margin m = Margin.of(slo, records, open);
                double need = slo.isRate() ? 30 : Math.max(30, 2 / Math.max(1e-3, 1 - Margin.quantileOf(
                        slo.stat().equals("mean") ? "p50" : slo.stat())));
                if (m.samples() < need) return false;
                boolean sure = Math.abs(m.value()) > 1.96 * m.se();
                if (sure && m.value() > 0) return true;
                allPass &= sure && m.value() < 0;
            }
            return allPass;
        };
    }

    /** Takes the ramp an interrupted search had learnt, so a resumed search shapes its probes the same way. */
    public void restore(double rampSeconds) {
        this.rampSeconds = rampSeconds;
    }

    public double rampSeconds() {
        return rampSeconds;
    }


}
