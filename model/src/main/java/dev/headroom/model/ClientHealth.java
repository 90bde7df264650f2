package dev.headroom.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the client itself may have limited or bent the measurement, how far its timestamps can be trusted, and
 * why (docs/metrics.md, "Client health").
 *
 * @param sendLagP99Ms      p99 of actual − intended send time
 * @param schedulingDelayMs how late a 1-ms ticker on the client's own scheduler woke, over the run: the delay any
 *                          timestamp the client took may carry (empty when not measured, as on the virtual clock)
 * @param timingErrorMs     the run's timing error bound (p99): the scheduling delay p99, plus in open loop the send
 *                          lag p99 (open-loop latencies start at the intended send time); NaN when not measured
 * @param cpuUtil           mean process CPU over the run, fraction of all cores
 * @param gcPauseMaxMs      longest GC pause
 * @param clientBound       true when any threshold was crossed
 * @param warnings          the reasons, in words
 */
public record ClientHealth(
        double sendLagP99Ms,
        Distribution schedulingDelayMs,
        double timingErrorMs,
        double cpuUtil,
        double cpuMax,
        double gcPauseMaxMs,
        boolean clientBound,
        List<String> warnings) {
    /** Open loop: a p99 send lag above this bends the arrival schedule. */
    public static final double SEND_LAG_P99_LIMIT_MS = 1.0;
    /** Closed loop: send lag taking more than this share of the users' time lowers the load asked for. */
    public static final double SEND_LAG_SHARE_LIMIT = 0.01;
    /** A p99 scheduling delay above this makes the client's timestamps late. */
    public static final double SCHEDULING_DELAY_P99_LIMIT_MS = 1.0;
    /** Fewer ticks than this (a fifth of a second) make no verdict: their p99 would be one hiccup. */
    public static final long SCHEDULING_DELAY_MIN_TICKS = 200;

    public static final double CPU_LIMIT = 0.85;
    public static final double GC_PAUSE_LIMIT_MS = 10.0;

    public ClientHealth {
        warnings = List.copyOf(warnings);
    }

    /** What the client observed of itself during one load point (see the record's components). */
    public record Observed(Distribution schedulingDelayMs, double cpuUtil, double cpuMax, double gcPauseMaxMs) {
        /** Nothing observed: the virtual clock has no client. */
        public static final Observed NONE = new Observed(Distribution.empty(), Double.NaN, Double.NaN, 0);
    }

    /**
     * Judges a load point's client. Open loop: send lag p99 > 1 ms. Closed loop, where a late send delays only that
     * user's next request (latency runs from the actual send): send lag > 1 % of the users' time over the window.
     * Either way: scheduling delay p99 > 1 ms (over at least {@value #SCHEDULING_DELAY_MIN_TICKS} ticks), CPU > 85 %, a
     * GC pause > 10 ms.
     *
     * @param sharedProcess whether a server ran in the same process (the embedded simulator): then the process's CPU
     *                      is not the client's alone, and is reported but not judged
     */
    public static ClientHealth assess(Summary summary, LoadModel load, Observed o, boolean sharedProcess) {
        Distribution lag = summary.distribution(Metric.SEND_LAG_MS);
        double lagP99 = lag.count() == 0 ? 0 : lag.p99();
        boolean open = load instanceof LoadModel.Open;
        List<String> w = new ArrayList<>();
        if (open && lagP99 > SEND_LAG_P99_LIMIT_MS) {
            w.add(f("send lag p99 %.2f ms > %.0f ms: requests left late", lagP99, SEND_LAG_P99_LIMIT_MS));
        }
        if (load instanceof LoadModel.Closed c && lag.count() > 0 && summary.windowSeconds() > 0) {
            double share = lag.mean() * lag.count() / (c.concurrency() * summary.windowSeconds() * 1000);
            if (share > SEND_LAG_SHARE_LIMIT) {
                w.add(f(
                        "send lag took %.1f%% of the users' time (> %.0f%%): the load was lower than asked",
                        share * 100, SEND_LAG_SHARE_LIMIT * 100));
            }
        }
        Distribution sched = o.schedulingDelayMs();
        boolean measured = sched.count() > 0;
        if (sched.count() >= SCHEDULING_DELAY_MIN_TICKS && sched.p99() > SCHEDULING_DELAY_P99_LIMIT_MS) {
            w.add(f(
                    "scheduling delay p99 %.2f ms > %.0f ms: the client took its timestamps late",
                    sched.p99(), SCHEDULING_DELAY_P99_LIMIT_MS));
        }
        if (!sharedProcess && o.cpuUtil() > CPU_LIMIT) {
            w.add(f("client CPU %.0f%% > %.0f%%", o.cpuUtil() * 100, CPU_LIMIT * 100));
        }
        if (o.gcPauseMaxMs() > GC_PAUSE_LIMIT_MS) {
            w.add(f("GC pause %.1f ms > %.0f ms", o.gcPauseMaxMs(), GC_PAUSE_LIMIT_MS));
        }
        double timingError = measured ? sched.p99() + (open ? lagP99 : 0) : Double.NaN;
        return new ClientHealth(lagP99, sched, timingError, o.cpuUtil(), o.cpuMax(), o.gcPauseMaxMs(), !w.isEmpty(), w);
    }

    /** A worker's clock less sure than this (offset uncertainty plus drift) makes its timestamps suspect. */
    public static final double WORKER_CLOCK_LIMIT_MS = 1.0;

    /**
     * This verdict for a run made by {@code workers}: the timing error also carries the worst worker clock's error
     * bound ({@link WorkerRun#clockErrorMs}); a worker whose clock is less sure than {@value #WORKER_CLOCK_LIMIT_MS}
     * ms, or whose own client crossed a threshold (CPU, GC pause, scheduling delay), is named. No workers: unchanged.
     */
    public ClientHealth withWorkers(List<WorkerRun> workers) {
        if (workers.isEmpty()) return this;
        List<String> w = new ArrayList<>(warnings);
        double clock = 0;
        for (WorkerRun r : workers) {
            if (!Double.isNaN(r.clockErrorMs())) clock = Math.max(clock, r.clockErrorMs()); // NaN: never reached
            if (r.clockErrorMs() > WORKER_CLOCK_LIMIT_MS) {
                w.add(f(
                        "worker %d's clock is only known to %.2f ms (> %.0f ms): its timestamps may be off by that",
                        r.worker(), r.clockErrorMs(), WORKER_CLOCK_LIMIT_MS));
            }
            Observed o = r.client();
            Distribution sched = o.schedulingDelayMs();
            if (o.cpuUtil() > CPU_LIMIT)
                w.add(f("worker %d: client CPU %.0f%% > %.0f%%", r.worker(), o.cpuUtil() * 100, CPU_LIMIT * 100));
            if (o.gcPauseMaxMs() > GC_PAUSE_LIMIT_MS) {
                w.add(f("worker %d: GC pause %.1f ms > %.0f ms", r.worker(), o.gcPauseMaxMs(), GC_PAUSE_LIMIT_MS));
            }
            if (sched.count() >= SCHEDULING_DELAY_MIN_TICKS && sched.p99() > SCHEDULING_DELAY_P99_LIMIT_MS) {
                w.add(f(
                        "worker %d: scheduling delay p99 %.2f ms > %.0f ms",
                        r.worker(), sched.p99(), SCHEDULING_DELAY_P99_LIMIT_MS));
            }
        }
        double timing = Double.isNaN(timingErrorMs) ? clock : timingErrorMs + clock;
        return new ClientHealth(
                sendLagP99Ms, schedulingDelayMs, timing, cpuUtil, cpuMax, gcPauseMaxMs, !w.isEmpty(), w);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
