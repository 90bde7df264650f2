package dev.headroom.optimizer;

import dev.headroom.model.StopReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Finds the load with the most goodput by Bayesian optimisation: four log-spaced probes over [min, max] (fewer when
 * one shows a full batch: the higher ones lie past it), then a
 * Gaussian-process surrogate of goodput against log(load) ({@link GoodputSurrogate}) and the next probe where the
 * expected improvement over the best posterior mean is largest. Probes where goodput has collapsed above the best
 * are not fitted but bound the search ({@link #cap}), and a probe goes at most halfway (in log) from the best to that
 * bound. Stops when the best expected improvement is below 1 % of the best value, at the probe limit, or after the
 * initial design when none of its loads had a good request (the SLO is out of reach at the lowest). The answer
 * is the argmax of the posterior mean within the probed range below the collapse, with its posterior mean ± sd. On a
 * server that states its batch cap, neither a probe after the initial design nor the answer goes past the cap's
 * tolerance edge ({@link #cappedAt}), or past the users its probe at the cap shows keep the batch full, when more
 * (its fill, {@link RunningStreams#fillUsers}).
 */
public final class GoodputSearch {
    static final int INITIAL_PROBES = 4;
    /** Stop when no candidate is expected to improve on the best by more than this share of it. */
    static final double EI_STOP = 0.01;

    private static final int GRID = 256;
    private static final NormalDistribution STD_NORMAL = new NormalDistribution(null, 0, 1);

    /** Measures goodput at one load. */
    public interface Observer {
        Observation observe(double load, int probeIndex);
    }

    /**
     * One probe: the load, its goodput and that goodput's standard error, what it cost, and what it showed of the
     * server's batch: the requests it streamed at once ({@link RunningStreams}), the users that could wait for a
     * slot before its good requests suffered ({@link Goodput#queueRoom}), and the users that keep that many streaming
     * ({@link RunningStreams#fillUsers}); and the largest of its SLOs' margins ({@link Margin}: above 0 when a
     * statistic misses its threshold); NaN when unknown.
     */
    public record Observation(
            double load,
            double goodput,
            double se,
            long requests,
            double seconds,
            double runningStreams,
            double queueRoom,
            double fillUsers,
            double sloMargin) {
        /** An observation without a reading of the server's batch. */
        public Observation(double load, double goodput, double se, long requests, double seconds) {
            this(load, goodput, se, requests, seconds, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }

        /** An observation without the fill of its batch or its SLOs' margin. */
        public Observation(
                double load,
                double goodput,
                double se,
                long requests,
                double seconds,
                double runningStreams,
                double queueRoom) {
            this(load, goodput, se, requests, seconds, runningStreams, queueRoom, Double.NaN, Double.NaN);
        }
    }

    /** The posterior on a grid of loads, and the fitted kernel (amplitude, length scale, nugget), for the report. */
    public record Posterior(double[] loads, double[] mean, double[] sd, double[] hyperparameters) {}

    /**
     * @param load          the argmax of the posterior mean (integer loads: rounded)
     * @param mean          posterior mean goodput there
     * @param sd            posterior sd there
     * @param bestObserved  the probe with the highest measured goodput
     * @param expectedImprovement the best expected improvement when the search stopped
     * @param stopReason    converged (EI below 1 % of the best), max_probes, or below_min (no good request at any load
     *                      of the initial design, min among them)
     * @param batchCap      the server's batch cap the search went by (stated or observed), NaN when none; when the
     *                      answer is at it (or a few users past it), mean ± sd is the goodput measured at the cap
     * @param batchCapSource where that cap came from, null when none
     */
    public record Result(
            double load,
            double mean,
            double sd,
            Observation bestObserved,
            double expectedImprovement,
            StopReason stopReason,
            List<Observation> probes,
            Posterior posterior,
            double batchCap,
            CapSource batchCapSource) {

        /**
         * {lowest, highest} load whose posterior mean is within one sd of the best: statistically as good as the
         * argmax (just the argmax without a posterior).
         */
        public double[] plateau() {
            double lo = load, hi = load;
            if (posterior != null) {
                for (int i = 0; i < posterior.loads().length; i++) {
                    if (posterior.mean()[i] >= mean - sd) {
                        lo = Math.min(lo, posterior.loads()[i]);
                        hi = Math.max(hi, posterior.loads()[i]);
                    }
                }
            }
            return new double[] {lo, hi};
        }
    }

    private final SearchSpec spec;
    /** The load the server says it starts to queue at ({@link QueueingPoint}); NaN when none. */
    private double hint = Double.NaN;
    /**
     * With a stated batch cap, the highest load the search probes after its initial design and may answer: the cap's
     * tolerance edge. Past the cap no more requests run at once, so throughput stops rising and requests only wait
     * longer; a few users more than the cap keep its batch full (a finished request's place is taken at once), and
     * goodput peaks within a few per cent past it. Infinite when none.
     */
    private double batchCap = Double.POSITIVE_INFINITY;
    /** The batch cap itself, stated or read off a probe's running streams ({@link #learnCap}); NaN when none. */
    private double capLoad = Double.NaN;
    /**
     * The users that keep the cap's batch streaming without a wait, read off the probe at the cap ({@link
     * RunningStreams#fillUsers}); NaN until then. Each user's slot idles through the server's per-request work and its
     * prefill, so goodput may go on rising past the cap up to about here; the search may probe and answer up to it.
     */
    private double fillLoad = Double.NaN;

    private CapSource capSource;
    /** Whether the initial design has ended (with a full batch shown, it ends early: see {@link #run}). */
    private boolean designDone;

    public GoodputSearch(SearchSpec spec) {
        this.spec = spec;
    }

    /**
     * Start from the load at which the server says it starts to queue: most servers' goodput peaks there (up to it
     * more users bring more good requests; past it they wait and miss the SLO together). Ignored outside (min, max).
     */
    public GoodputSearch hinting(double load) {
        this.hint = load > spec.min() && load < spec.max() ? load : Double.NaN;
        return this;
    }

    /**
     * {@link #hinting} a stated batch cap: as well, the search neither probes nor answers past the cap's tolerance edge
     * (the initial design's last probe): further up, more users only wait.
     */
    public GoodputSearch cappedAt(double load) {
        hinting(load);
        if (!Double.isNaN(hint)) {
            batchCap = toleranceEdge(hint);
            capLoad = snap(hint);
            capSource = CapSource.STATED;
        }
        return this;
    }

    /**
     * A closed-loop probe with more users than the server streamed at once (by more than twice the tolerance) shows a
     * full running batch, a cap whatever the server states: from then on the search treats it as a stated one.
     */
    private void learnCap(Observation o) {
        // Over sessions a user thinks between turns, so fewer stream than there are users with no cap at all.
        if (!spec.integerLoad() || spec.sessions() != null || !Double.isNaN(capLoad)) return;
        double cap = RunningStreams.cap(o.load(), o.runningStreams(), spec.tolerance());
        if (!Double.isNaN(cap)) {
            capLoad = cap;
            capSource = CapSource.OBSERVED;
            batchCap = toleranceEdge(capLoad);
        }
    }

    /** Where the search's batch cap came from. */
    public enum CapSource {
        /** The server said so ({@link #cappedAt}). */
        STATED,
        /** A probe showed more users than the server streamed at once ({@link RunningStreams}). */
        OBSERVED;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Once the cap has been probed: the users that keep its batch full, when more than its tolerance edge — from then
     * on the search may probe and answer up to them.
     */
    private void learnFill(List<Observation> probes) {
        if (Double.isNaN(capLoad) || !Double.isNaN(fillLoad)) return;
        probes.stream()
                .filter(o -> sameLoad(o.load(), capLoad) && o.fillUsers() > capLoad)
                .findFirst()
                .ifPresent(o -> {
                    fillLoad = Math.min(spec.max(), Math.floor(o.fillUsers()));
                    batchCap = Math.max(batchCap, fillLoad);
                });
    }

    /**
     * The fill is known, lies past the cap's tolerance edge and below any collapse, and has not been probed: goodput
     * rises past the cap towards it as long as the SLO allows the few users who wait.
     */
    private boolean fillUnprobed(List<Observation> probes, double collapse) {
        return !Double.isNaN(fillLoad)
                && fillLoad > toleranceEdge(capLoad)
                && fillLoad < collapse
                && probes.stream().noneMatch(o -> sameLoad(o.load(), fillLoad));
    }

    /**
     * An integer load strictly between the best probe and the collapse just above it, when the two are within the
     * tolerance of each other: at a batch cap goodput can peak one or two users past the best probe and fall away a
     * user later, a step the smooth surrogate cannot see. NaN when there is none (or the load is continuous).
     */
    private double edgeBetween(List<Observation> probes, double collapse) {
        if (!spec.integerLoad() || Double.isInfinite(collapse)) return Double.NaN;
        double best = best(probes).load();
        if (collapse - best < 2 || collapse > toleranceEdge(best)) return Double.NaN;
        double mid = Math.floor((best + collapse) / 2);
        return probes.stream().anyMatch(o -> sameLoad(o.load(), mid)) ? Double.NaN : mid;
    }

    /**
     * The middle of the cap and its fill, both probed, the middle below any collapse, when nothing between them has
     * been: the users who wait past a full batch first keep its slots busy and then, all at once, break the SLO, so
     * goodput can peak between the two by more than either shows — even when the fill itself has collapsed (a cap of
     * 64 whose fill of 69 lost 10 %: 66 users did 3 % better than 64). NaN otherwise.
     */
    private double fillBetween(List<Observation> probes, double collapse) {
        if (Double.isNaN(fillLoad) || fillLoad - capLoad < 2) return Double.NaN;
        boolean both = probes.stream().anyMatch(o -> sameLoad(o.load(), capLoad))
                && probes.stream().anyMatch(o -> sameLoad(o.load(), fillLoad));
        if (!both || probes.stream().anyMatch(o -> o.load() > capLoad && o.load() < fillLoad)) return Double.NaN;
        double mid = Math.round((capLoad + fillLoad) / 2);
        return mid < collapse ? mid : Double.NaN;
    }

    /**
     * The middle of the cap and its fill when the fill lies within the cap's tolerance edge (past it, {@link
     * #fillUnprobed} probes the fill itself), the cap probed and not collapsed, and the search would answer at the cap:
     * a user or two waiting past a full batch takes a finished request's slot at once, where at the cap the slot idles
     * while its user sends again, and the cap probe's queue room (1 % of its good requests) undercounts what that
     * gains. The answer is then the better measured of the two. NaN otherwise.
     */
    private double fillWithin(List<Observation> probes, double collapse) {
        if (!spec.integerLoad() || Double.isNaN(capLoad) || Double.isNaN(fillLoad)) return Double.NaN;
        if (fillLoad - capLoad < 2 || fillLoad > toleranceEdge(capLoad)) return Double.NaN;
        List<Observation> atCap =
                probes.stream().filter(o -> sameLoad(o.load(), capLoad)).toList();
        if (atCap.isEmpty() || probes.stream().anyMatch(o -> o.load() > capLoad && o.load() <= fillLoad)) {
            return Double.NaN;
        }
        double mid = capLoad + Math.round((fillLoad - capLoad) / 2);
        if (!(mid < collapse)) return Double.NaN;
        Result r = result(probes, StopReason.CONVERGED);
        return r.load() >= capLoad && r.load() <= fillLoad ? mid : Double.NaN;
    }

    /**
     * How far above the load where the SLO's statistic crosses its threshold goodput may still peak, as a factor:
     * throughput goes on rising a little past it (docs/search.md, "Why the constants are what they are").
     */
    static final double PAST_SLO = 1.5;

    /**
     * A probe below {@code load} by more than {@link #PAST_SLO} × already fails the SLO's statistic: goodput peaks
     * below {@code load}, and a cap there is not worth a probe.
     */
    private static boolean sloBindsWellBelow(double load, List<Observation> probes) {
        return probes.stream().anyMatch(o -> o.sloMargin() > 0 && o.load() * PAST_SLO < load);
    }

    /** A cap is known and the search has not probed it yet: goodput peaks there unless the SLO binds below it. */
    private boolean capUnprobed(List<Observation> probes) {
        return !Double.isNaN(capLoad)
                && capLoad >= spec.min()
                && capLoad <= spec.max()
                && probes.stream().noneMatch(o -> sameLoad(o.load(), capLoad));
    }

    /**
     * Users past the cap the answer adds: one per {@value #ROOM_PER_USER} of the cap probe's queue room, when that room
     * is at least {@value #MIN_ROOM} (docs/search.md, "Why the constants are what they are").
     */
    static final int ROOM_PER_USER = 4;

    static final int MIN_ROOM = 2;

    private static boolean sameLoad(double a, double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    }

    /** {@code load}'s tolerance edge above it, within max (integers: at least one more). */
    private double toleranceEdge(double load) {
        double edge = Math.min(spec.max(), load * (1 + spec.tolerance()));
        return spec.integerLoad() ? Math.max(load + 1, Math.floor(edge)) : edge;
    }

    public Result run(Observer observer) {
        return run(observer, probes -> {});
    }

    /**
     * Whether the initial design's probes are all taken: from then on a probe refines, and {@link ProbeShape} runs it
     * longer. The design ends early when a probe shows a full batch, its higher loads past it.
     */
    public boolean designDone() {
        return designDone;
    }

    /** Runs the search; {@code afterEachProbe} sees every probe so far as soon as one ends. */
    public Result run(Observer observer, Consumer<List<Observation>> afterEachProbe) {
        List<Observation> probes = new ArrayList<>();
        for (double load : initialLoads()) {
            // A full batch shown: the design's higher loads lie past it, where goodput has collapsed.
            if (load > batchCap) break;
            probes.add(observer.observe(load, probes.size()));
            learnCap(probes.getLast());
            afterEachProbe.accept(List.copyOf(probes));
            if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES);
        }
        designDone = true;
        // Not one good request at any load of the design, the lowest among them: the SLO is tighter than the server's
        // latency at min, and goodput is zero wherever the search could look (the lowest load already fails).
        if (probes.stream().allMatch(o -> !(o.goodput() > 0))
                && probes.stream().anyMatch(o -> sameLoad(o.load(), spec.min()))) {
            return result(probes, StopReason.BELOW_MIN);
        }
        while (true) {
            probes.forEach(this::learnCap);
            learnFill(probes);
            double cap = cap(probes);
            List<Observation> smooth = belowCap(probes, cap);
            double[] next;
            if (capUnprobed(probes) && !sloBindsWellBelow(capLoad, probes)) {
                // A full batch seen: the cap itself next, where goodput peaks unless the SLO binds below it.
                next = new double[] {capLoad, Double.POSITIVE_INFINITY};
            } else if (fillUnprobed(probes, cap)) {
                // The cap probed: the users that keep its batch full next.
                next = new double[] {fillLoad, Double.POSITIVE_INFINITY};
            } else if (distinctLoads(smooth) < 2) {
                // Too little below the collapse for a surrogate: halve the gap (in log) between the best and the
                // collapse.
                double from = best(probes).load();
                double mid = snap(Math.sqrt(from * cap));
                next = new double[] {mid, mid > from && mid < cap ? Double.POSITIVE_INFINITY : 0};
            } else {
                GoodputSurrogate gp = surrogate(smooth);
                double best = bestMean(gp, smooth);
                next = nextByExpectedImprovement(gp, best, probes, reach(probes, cap));
                if (next[1] < EI_STOP * Math.max(best, 1e-12)) next[1] = 0;
                double edge = edgeBetween(probes, cap);
                if (Double.isNaN(edge)) edge = fillBetween(probes, cap);
                // Only about to stop: it asks where the search would answer, a fit of its own.
                if (Double.isNaN(edge) && next[1] <= 0) edge = fillWithin(probes, cap);
                if (next[1] <= 0 && !Double.isNaN(edge)) next = new double[] {edge, Double.POSITIVE_INFINITY};
            }
            if (next[1] <= 0) return result(probes, StopReason.CONVERGED);
            if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES);
            probes.add(observer.observe(next[0], probes.size()));
            afterEachProbe.accept(List.copyOf(probes));
        }
    }

    /**
     * The lowest load above the best probe where goodput has collapsed (below {@value #COLLAPSE} of the best), or
     * max. Past the SLO a server's goodput usually falls off a cliff — requests start to queue and miss the latency
     * target together — and a stationary Gaussian process cannot represent a jump: fitted across it, its length
     * scale shrinks until it models nothing. So collapsed probes are not fitted; they bound the search from above,
     * as a failing probe bounds a boundary search, and expected improvement then works on the smooth part below. A
     * partial drop counts too: fitted, a drop just past the peak is smoothed into the rise before it, and the
     * posterior's argmax lands well below the peak (80 users on a server whose goodput peaks at 130).
     */
    static double cap(List<Observation> probes) {
        Observation best = best(probes);
        return probes.stream()
                .filter(o -> o.load() > best.load() && o.goodput() < COLLAPSE * best.goodput())
                .mapToDouble(Observation::load)
                .min()
                .orElse(Double.POSITIVE_INFINITY);
    }

    /**
     * The share of the best goodput below which a probe above the best has collapsed (docs/search.md, "Why the
     * constants are what they are": 0.5 to 0.95 measured).
     */
    static final double COLLAPSE = 0.9;

    /**
     * How far up a next probe may go: halfway (in log) from the best probe to the collapse above it. The surrogate,
     * fitted below the collapse, extrapolates the rise and would put every probe just under it, creeping down one
     * step at a time; halving the gap instead finds the edge by bisection while EI still chooses anywhere below.
     */
    private double reach(List<Observation> probes, double cap) {
        double reach = cap;
        if (!Double.isInfinite(cap)) {
            double mid = Math.sqrt(best(probes).load() * cap);
            reach = spec.integerLoad() ? Math.floor(mid) + 1 : mid * (1 + 1e-9);
        }
        // Nor past a stated batch cap (candidates stop at the first load at or past the reach).
        if (Double.isFinite(batchCap)) {
            reach = Math.min(reach, spec.integerLoad() ? batchCap + 1 : batchCap * (1 + 1e-9));
        }
        return reach;
    }

    private static List<Observation> belowCap(List<Observation> probes, double cap) {
        return probes.stream().filter(o -> o.load() < cap).toList();
    }

    private static Observation best(List<Observation> probes) {
        return probes.stream()
                .max(Comparator.comparingDouble(Observation::goodput))
                .orElseThrow();
    }

    private static long distinctLoads(List<Observation> probes) {
        return probes.stream().map(Observation::load).distinct().count();
    }

    private double snap(double load) {
        return spec.integerLoad() ? Math.round(load) : load;
    }

    /**
     * Four loads spaced evenly in log between min and max (integers: rounded, duplicates dropped); with a queueing
     * point q, min, the geometric middle of min and q, q and q's tolerance edge above it, which tells a peak at q
     * from one past it.
     */
    List<Double> initialLoads() {
        List<Double> loads = new ArrayList<>();
        double[] design = new double[INITIAL_PROBES];
        for (int i = 0; i < INITIAL_PROBES; i++) {
            design[i] = Math.exp(Math.log(spec.min()) + Math.log(spec.max() / spec.min()) * i / (INITIAL_PROBES - 1));
        }
        if (!Double.isNaN(hint)) {
            design = new double[] {
                spec.min(), Math.sqrt(spec.min() * hint), hint, Math.min(spec.max(), toleranceEdge(hint))
            };
        }
        for (double load : design) {
            if (spec.integerLoad()) load = Math.round(load);
            if (!loads.contains(load)) loads.add(load);
        }
        return loads;
    }

    /** The surrogate fitted to the probes so far. */
    public static GoodputSurrogate surrogate(List<Observation> probes) {
        return GoodputSurrogate.fit(probes.stream()
                .map(o -> new GoodputSurrogate.Point(Math.log(o.load()), o.goodput(), Math.max(o.se() * o.se(), 1e-12)))
                .toList());
    }

    /** The best posterior mean at a probed load: the incumbent that expected improvement is measured against. */
    private static double bestMean(GoodputSurrogate gp, List<Observation> probes) {
        return probes.stream()
                .mapToDouble(o -> gp.predict(Math.log(o.load())).mean())
                .max()
                .orElse(0);
    }

    /**
     * {load, expected improvement} of the best candidate on a log grid over [min, max], loads already probed left
     * out: EI with noisy measurements otherwise keeps re-measuring the incumbent instead of exploring.
     */
    private double[] nextByExpectedImprovement(GoodputSurrogate gp, double best, List<Observation> probes, double cap) {
        double bestLoad = spec.min(), bestEi = -1;
        for (double load : candidates()) {
            if (load >= cap) break;
            if (probes.stream().anyMatch(o -> Math.abs(Math.log(o.load() / load)) < 1e-9)) continue;
            GoodputSurrogate.Prediction p = gp.predict(Math.log(load));
            double ei = expectedImprovement(p.mean(), p.sd(), best);
            if (ei > bestEi) {
                bestEi = ei;
                bestLoad = load;
            }
        }
        return new double[] {bestLoad, Math.max(0, bestEi)};
    }

    /** EI(x) = (μ − f*)·Φ(z) + σ·φ(z), z = (μ − f*) ÷ σ; for σ = 0, max(0, μ − f*). */
    static double expectedImprovement(double mu, double sd, double best) {
        if (sd <= 1e-12) return Math.max(0, mu - best);
        double z = (mu - best) / sd;
        return (mu - best) * STD_NORMAL.cumulativeProbability(z) + sd * STD_NORMAL.density(z);
    }

    private List<Double> candidates() {
        List<Double> out = new ArrayList<>();
        double a = Math.log(spec.min()), b = Math.log(spec.max());
        for (int k = 0; k <= GRID; k++) {
            double load = Math.exp(a + (b - a) * k / GRID);
            if (spec.integerLoad()) load = Math.round(load);
            if (out.isEmpty() || out.getLast() != load) out.add(load);
        }
        return out;
    }

    private Result result(List<Observation> probes, StopReason reason) {
        Observation bestObserved = best(probes);
        double cap = cap(probes);
        List<Observation> smooth = belowCap(probes, cap);
        if (distinctLoads(smooth) < 2) {
            return new Result(
                    bestObserved.load(),
                    bestObserved.goodput(),
                    bestObserved.se(),
                    bestObserved,
                    Double.NaN,
                    reason,
                    List.copyOf(probes),
                    null,
                    capLoad,
                    capSource);
        }
        GoodputSurrogate gp = surrogate(smooth);
        double lo = smooth.stream().mapToDouble(Observation::load).min().orElseThrow();
        double hi = smooth.stream().mapToDouble(Observation::load).max().orElseThrow();
        double best = bestMean(gp, smooth);
        double ei = nextByExpectedImprovement(gp, best, probes, cap)[1];
        double top = Math.min(hi, Math.max(lo, batchCap));
        // The probed loads too: the grid's integers skip some, and a probe that read the most may be the answer.
        List<Double> grid = java.util.stream.Stream.concat(
                        candidates().stream(), smooth.stream().map(Observation::load))
                .filter(l -> l >= lo && l <= top)
                .distinct()
                .sorted()
                .toList();
        double[] loads = grid.stream().mapToDouble(Double::doubleValue).toArray();
        double[] mean = new double[loads.length], sd = new double[loads.length];
        int arg = 0;
        for (int i = 0; i < loads.length; i++) {
            GoodputSurrogate.Prediction p = gp.predict(Math.log(loads[i]));
            mean[i] = p.mean();
            sd[i] = p.sd();
            if (mean[i] > mean[arg]) arg = i;
        }
        double answer = loads[arg], answerMean = mean[arg], answerSd = sd[arg];
        List<Observation> atCap = Double.isNaN(capLoad)
                ? List.of()
                : probes.stream().filter(o -> sameLoad(o.load(), capLoad)).toList();
        double g = atCap.stream().mapToDouble(Observation::goodput).average().orElse(Double.NaN);
        Observation past = smooth.stream()
                .filter(o -> o.load() > capLoad && o.load() <= top)
                .max(Comparator.comparingDouble(Observation::goodput))
                .orElse(null);
        if (!atCap.isEmpty() && g >= COLLAPSE * bestObserved.goodput()) {
            // At the cap the batch is full, and the fit's smooth curve rounds the kink there off (its length scale is
            // half a unit of log load or more; the cap's neighbourhood is a few per cent). Fitted best past the cap, or
            // below it by no more than one of the cap's standard errors from the better of the cap and the probe past
            // it that measured the most: that probe, when it beats the cap — users waiting past a full batch keep its
            // slots busy while the SLO allows their wait. Fitted best below by more: the SLO binds below the cap, and
            // the fit answers. Otherwise the cap, plus a few users
            // to wait for a slot when its requests have room in their SLO for that wait.
            double se =
                    Math.sqrt(atCap.stream().mapToDouble(o -> o.se() * o.se()).sum()) / atCap.size();
            boolean pastBetter = past != null && past.goodput() > g;
            double atOrPast = pastBetter ? past.goodput() : g;
            if (pastBetter && (loads[arg] > capLoad || mean[arg] - atOrPast <= se)) {
                answer = past.load();
                answerMean = past.goodput();
                answerSd = past.se();
            } else if (loads[arg] > capLoad || mean[arg] - g <= se) {
                double room =
                        atCap.stream().mapToDouble(Observation::queueRoom).min().orElse(Double.NaN);
                double extra = room >= MIN_ROOM ? Math.ceil(room / ROOM_PER_USER) : 0;
                answer = Math.min(spec.max(), capLoad + extra);
                answerMean = g;
                answerSd = se;
            }
        }
        return new Result(
                answer,
                answerMean,
                answerSd,
                bestObserved,
                ei,
                reason,
                List.copyOf(probes),
                new Posterior(loads, mean, sd, gp.hyperparameters()),
                capLoad,
                capSource);
    }
}
