package dev.headroom.optimizer;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.SloStat;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * How each probe of a search starts, so short probes measure the steady state rather than a start-up burst.
 * Closed loop: users are started evenly over one request cycle at that load (the mean e2e, interpolated in log-log
 * from the loads measured so far; before the first probe, no ramp), which is how far apart they are once running;
 * everything sent before the ramp has ended plus one more cycle is warm-up (and at least one request per user), so
 * the measured requests start from a mixed state. A closed-loop probe measures at least three waves (3 × users
 * requests); an open-loop one at least eight request lifetimes of arrivals (and the largest TTFT or e2e threshold ÷ the
 * tolerance, see {@link #queueSeconds}) after one of warm-up, so a queue that builds slowly past the boundary has time
 * to show. A closed-loop max-goodput probe after the initial design runs {@link #GOODPUT_LENGTH} times as long.
 */
public final class ProbeShape {
    /**
     * Request lifetimes (median e2e at the lowest load) an open-loop probe measures at least: past capacity a
     * continuous-batching server's running batch absorbs the excess until it is full, and only then does a queue build
     * (the values tried, and what they gave: docs/search.md, "Why the constants are what they are").
     */
    static final double OPEN_LOOP_LIFETIMES = 8;
    /**
     * How many times its length a max-rate probe runs once the search has a failing probe (a soak): near capacity a
     * queue's excursions are rare and long, and a short probe there passes rates the server cannot sustain.
     */
    public static final int SOAK_FACTOR = 4;
    /**
     * How many times its length a closed-loop max-goodput probe runs after the initial design: near the peak, telling
     * 98 % of the max from the max takes a goodput measured to about 1 % (docs/search.md, "Why the constants are
     * what they are").
     */
    static final int GOODPUT_LENGTH = 8;

    /** How many times its length an ambiguous boundary probe may run. */
    static final int AMBIGUOUS_EXTENSION = 5;
    /**
     * The early stop's boundary, in standard errors: 99 % at each look, about 95 % over a probe's five or six looks.
     */
    static final double STOP_Z = 2.58;
    /** How much the judged prefix grows between two looks. */
    static final double LOOK_GROWTH = 1.5;

    /**
     * How a closed loop's request cycle grows with its users, in log-log, when only one load is known: halfway between
     * an idle server's (flat) and a saturated one's (proportional to users).
     */
    static final double ONE_LOAD_SLOPE = 0.5;

    private final SearchSpec spec;
    private double rampSeconds;
    /** Closed loop: mean e2e (seconds) measured at each load. */
    private final TreeMap<Double, Double> cycles = new TreeMap<>();
    /** The loads measured so far; in a max-rate search, a rate measured again is a soak ({@link #isSoak}). */
    private final Set<Double> measured = new HashSet<>();
    /** Whether a probe of this search has failed: from then on a max-rate search's probes are soaks. */
    private boolean bracketed;
    /** Max goodput: whether the search's initial design has ended ({@link GoodputSearch#designDone}). */
    private boolean designDone;

    public ProbeShape(SearchSpec spec) {
        this.spec = spec;
    }

    /** Max goodput: the initial design has ended (early, when a probe showed a full batch); later probes run longer. */
    void designDone() {
        designDone = true;
    }

    /**
     * The run length of a probe at {@code load}. Over sessions, the load counts sessions and the lengths count
     * requests: each session sends {@link #perSession} of them, and a probe lets every user finish two sessions.
     */
    public RunLength forLoad(double load) {
        return forLoad(load, isSoak(load));
    }

    /** {@link #forLoad(double)}, a soak or not as {@code soak} says (a drift check is never one). */
    RunLength forLoad(double load, boolean soak) {
        if (spec.sessions() != null) {
            int perSession = spec.sessions().turns() * spec.sessions().callsPerTurn();
            RunLength base = spec.perProbe();
            if (!spec.integerLoad()) {
                // The first sessions' first turns meet an empty cache; the rest are measured.
                int warmup = (int) Math.ceil(load * Math.max(2, rampSeconds));
                long n = Math.max(base.requests(), (long) Math.ceil(load * perSession * OPEN_LOOP_LIFETIMES));
                return new RunLength((int) Math.min(Integer.MAX_VALUE, n), base.maxSeconds(), warmup, 0);
            }
            int users = (int) Math.round(load);
            long n = Math.max(base.requests(), 2L * users * perSession);
            // Sessions started together stay in step, every turn a burst: their starts are spread over one turn's
            // cycle (a request's e2e, as measured so far, and the think time), which is then warm-up too.
            double cycle = users == 1
                    ? 0
                    : cycleAt(users) + spec.sessions().thinkTime().meanSeconds();
            return new RunLength((int) Math.min(Integer.MAX_VALUE, n), base.maxSeconds(), users, cycle, cycle);
        }
        int users = (int) Math.round(load);
        if (!spec.integerLoad()) {
            // Open loop: a queue that builds slowly near capacity shows only over several request lifetimes.
            RunLength base = spec.perProbe();
            int warmup = (int) Math.ceil(load * Math.max(2, rampSeconds));
            // A soak's time cap grows with its length, or a capped probe would be no longer than the first.
            double seconds = soak ? base.maxSeconds() * SOAK_FACTOR : base.maxSeconds();
            return new RunLength(extended(passAfter(load, soak)), seconds, warmup, 0);
        }
        RunLength base = spec.perProbe();
        double cycle = users == 1 ? 0 : cycleAt(users);
        int factor = spec.objective() == SearchSpec.Objective.MAX_GOODPUT
                        && (designDone || cycles.size() >= GoodputSearch.INITIAL_PROBES)
                ? GOODPUT_LENGTH
                : 1;
        return new RunLength(
                extended(factor * Math.max(base.requests(), 3 * users)),
                factor * base.maxSeconds(),
                users,
                cycle,
                2 * cycle);
    }

    /**
     * An open-loop probe's length before any extension: the base length, and at least {@link #OPEN_LOOP_LIFETIMES}
     * request lifetimes and {@link #queueSeconds} of arrivals.
     */
    private int openLoopRequests(double load) {
        double lifetimes = load * OPEN_LOOP_LIFETIMES * rampSeconds, queue = load * queueSeconds();
        return (int) Math.min(
                Integer.MAX_VALUE, Math.ceil(Math.max(spec.perProbe().requests(), Math.max(lifetimes, queue))));
    }

    /** Open loop: the requests judged before a probe at {@code load} may pass ({@link #SOAK_FACTOR} × for a soak). */
    private int passAfter(double load, boolean soak) {
        return (int) Math.min(Integer.MAX_VALUE, (long) openLoopRequests(load) * (soak ? SOAK_FACTOR : 1));
    }

    /**
     * Whether a probe at {@code load} is a soak: a max-rate search's probe once one has failed (it narrows the bracket
     * around capacity, where a short probe's verdict leans to a pass), or a rate measured again.
     */
    public boolean isSoak(double load) {
        return spec.objective() == SearchSpec.Objective.MAX_RATE && (bracketed || measured.contains(load));
    }

    /** Records that a probe failed (also a resumed search's): a max-rate search's probes are soaks from now on. */
    public void failed() {
        bracketed = true;
    }

    /**
     * A boundary probe's request budget: {@code AMBIGUOUS_EXTENSION} times its length, since its stop rule ends it as
     * soon as the verdict is certain — so only a probe still ambiguous at its length runs on, and gets more requests
     * rather than a replicate. Max-goodput probes run exactly their length.
     */
    private int extended(int requests) {
        if (spec.objective() == SearchSpec.Objective.MAX_GOODPUT) return requests;
        return (int) Math.min(Integer.MAX_VALUE, (long) requests * AMBIGUOUS_EXTENSION);
    }

    /**
     * The expected request cycle (mean e2e) of a closed loop of {@code users}: interpolated in log-log between the
     * nearest measured loads; beyond them, extrapolated along the slope of the two nearest, kept between flat (an idle
     * server) and proportional to users (a saturated one).
     */
    double cycleAt(double users) {
        if (cycles.isEmpty()) return rampSeconds;
        var below = cycles.floorEntry(users);
        var above = cycles.ceilingEntry(users);
        if (below != null && above != null) {
            if (below.getKey().equals(above.getKey())) return below.getValue();
            double t = Math.log(users / below.getKey()) / Math.log(above.getKey() / below.getKey());
            return Math.exp(Math.log(below.getValue()) + t * Math.log(above.getValue() / below.getValue()));
        }
        var near = below != null ? below : above;
        var next = below != null ? cycles.lowerEntry(near.getKey()) : cycles.higherEntry(near.getKey());
        double slope = next == null
                ? ONE_LOAD_SLOPE
                : Math.log(near.getValue() / next.getValue()) / Math.log(near.getKey() / next.getKey());
        slope = Math.max(0, Math.min(1, slope));
        return near.getValue() * Math.pow(users / near.getKey(), slope);
    }

    /** Learns from each measurement: the lone request's e2e from the first, and the cycle at each closed-loop load. */
    public void learn(Measurement m) {
        if (m.request().load() instanceof LoadModel.Open o) remember(o.ratePerSecond());
        double[] e2e = e2eSeconds(m);
        if (e2e.length == 0) return;
        if (rampSeconds <= 0) rampSeconds = e2e[e2e.length / 2];
        if (m.request().load() instanceof LoadModel.Closed c) {
            learnCycle(c.concurrency(), Arrays.stream(e2e).average().orElseThrow());
        }
    }

    /**
     * Records that {@code load} has been measured (also for a resumed search's finished probes): again, it is a soak.
     */
    public void remember(double load) {
        measured.add(load);
    }

    /**
     * One request cycle of {@code users} closed-loop users estimated from a lone request's e2e, as {@link #cycleAt}
     * extrapolates from one measured load: {@code e2e · users^0.5}.
     */
    public static double cycleFromLone(double loneE2eSeconds, int users) {
        return loneE2eSeconds * Math.pow(users, ONE_LOAD_SLOPE);
    }

    /** Learns a lone request's e2e (a pilot's): the cycle at one user, and the request lifetime if none is known. */
    public void learnLone(double e2eSeconds) {
        if (!(e2eSeconds > 0)) return;
        learnCycle(1, e2eSeconds);
        if (rampSeconds <= 0) rampSeconds = e2eSeconds;
    }

    /** Records the mean e2e measured with {@code users} closed-loop users (also used when a search resumes). */
    public void learnCycle(double users, double meanE2eSeconds) {
        if (meanE2eSeconds > 0) cycles.put(users, meanE2eSeconds);
    }

    /** The mean e2e (seconds) of a measurement's measured, successful requests; NaN when there are none. */
    public static double meanE2e(Measurement m) {
        return Arrays.stream(e2eSeconds(m)).average().orElse(Double.NaN);
    }

    private static double[] e2eSeconds(Measurement m) {
        return m.records().stream()
                .filter(r -> r.succeeded() && !r.warmup() && r.lastTokenNanos() >= 0)
                .mapToDouble(r -> (r.lastTokenNanos() - r.sentNanos()) / 1e9)
                .sorted()
                .toArray();
    }

    /**
     * Ends a probe at {@code load} early once its verdict is statistically certain: some SLO's margin is above zero by
     * more than {@link #STOP_Z} standard errors (a sure fail), or every SLO's is below zero by that much (a sure pass)
     * — each after enough requests for its statistic to exist ({@link #samplesForVerdict}; closed
     * loop: also one per user). Judged on the finished requests sent before the first one still running: the ones that
     * happen to finish first are the fast ones, and a verdict on them would be biased. It looks only when that prefix
     * has grown by half since its last look, with a Pocock-style constant boundary: looking after every tenth request
     * at 1.96 is a test repeated dozens of times (docs/search.md). None for max-goodput.
     */
    public MeasurementRequest.StopRule stopRule(double load) {
        return stopRule(load, isSoak(load));
    }

    /** {@link #stopRule(double)}, a soak's or not as {@code soak} says. */
    MeasurementRequest.StopRule stopRule(double load, boolean soak) {
        // Goodput is estimated from the whole probe; a pass/fail verdict does not settle it.
        if (spec.objective() == SearchSpec.Objective.MAX_GOODPUT) return null;
        boolean open = !spec.integerLoad();
        int atLeast = open ? 0 : (int) Math.round(load);
        int[] nextLook = {atLeast};
        int[] need =
                spec.slos().stream().mapToInt(ProbeShape::samplesForVerdict).toArray();
        // Open loop: a pass only once the probe's whole length is judged — a queue building just past capacity reaches
        // only the requests sent last, and a verdict on the earlier ones passes a rate the server cannot sustain. A
        // sure fail may stop at once.
        int passAfter = open ? passAfter(load, soak) : 0;
        // A soak may fail early only once half its length is judged: a short window can fall wholly in one of the
        // bursts it is there to average over.
        int failAfter = open && soak ? passAfter / 2 : 0;
        boolean itl = spec.slos().stream().anyMatch(o -> o.metric() == SloMetric.ITL);
        return new MeasurementRequest.StopRule() {
            @Override
            public boolean needsChunkTimes() {
                return itl;
            }

            @Override
            public boolean enough(List<RequestRecord> finished) {
                return verdict(finished);
            }

            private boolean verdict(List<RequestRecord> finished) {
                if (finished.size() < nextLook[0]) return false; // the prefix is no longer: not yet time to look
                List<RequestRecord> records = completedPrefix(finished);
                if (records.size() < nextLook[0]) return false;
                boolean allPass = true;
                for (int s = 0; s < need.length; s++) {
                    Slo slo = spec.slos().get(s);
                    Margin m = Margin.of(slo, records, open, spec.sessions());
                    if (m.samples() < need[s]) return false;
                    boolean sure = Math.abs(m.value()) > STOP_Z * m.se();
                    if (sure && m.value() > 0 && records.size() >= failAfter) return true;
                    allPass &= sure && m.value() < 0;
                }
                nextLook[0] = (int) Math.ceil(records.size() * LOOK_GROWTH);
                return allPass && records.size() >= passAfter;
            }
        };
    }

    /**
     * The fewest samples a verdict on {@code slo} is taken from: 30, and for a percentile enough for its interval to
     * lie inside the sample ({@link Margin#samplesToResolve}: 72 for a p95). With the earlier floor of 2 ÷ (1 − q) (40
     * for a p95) a probe could stop on a clipped, understated interval: one read +0.15 ± 0.12 over its 78 requests
     * where the steady state is −0.24.
     */
    static int samplesForVerdict(Slo slo) {
        if (slo.isRate()) return 30;
        double q = (slo.stat() == SloStat.MEAN ? SloStat.P50 : slo.stat()).quantile();
        // max never lies inside the sample: as many requests as a p99.9 would need by 2 ÷ (1 − q).
        return Math.max(30, q >= 1 ? 2000 : Margin.samplesToResolve(q));
    }

    /**
     * Open loop: the seconds of arrivals a probe measures before it may pass — the largest TTFT or e2e threshold ÷ the
     * tolerance. At (1 + tolerance) × capacity the queue's delay grows by {@code tolerance} seconds every second, so
     * that is how long it takes to push a request over its threshold. 0 without such an SLO.
     */
    double queueSeconds() {
        double seconds = 0;
        for (Slo slo : spec.slos()) {
            if (slo.metric().queued()) seconds = Math.max(seconds, slo.threshold() / 1000 / spec.tolerance());
        }
        return seconds;
    }

    /** The finished requests whose index is below that of every request not yet finished (warm-up excluded). */
    static List<RequestRecord> completedPrefix(List<RequestRecord> finished) {
        List<RequestRecord> sorted = finished.stream()
                .filter(r -> !r.warmup())
                .sorted(Comparator.comparingLong(RequestRecord::index))
                .toList();
        int k = 0;
        while (k < sorted.size() && sorted.get(k).index() == sorted.getFirst().index() + k) k++;
        return sorted.subList(0, k);
    }

    /** Takes the ramp an interrupted search had learnt, so a resumed search shapes its probes the same way. */
    public void restore(double rampSeconds) {
        this.rampSeconds = rampSeconds;
    }

    public double rampSeconds() {
        return rampSeconds;
    }
}
