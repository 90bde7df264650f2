package dev.headroom.optimizer;

import dev.headroom.model.BadInputException;
import dev.headroom.model.BoundaryType;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchDrift;
import dev.headroom.model.SearchProgress;
import dev.headroom.model.SearchReport;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.Slo;
import dev.headroom.model.StopReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One search from first probe to report, as {@code headroom search} and the evaluation benchmarks run it: each probe
 * shaped ({@link ProbeShape}), run through the caller's load-point pipeline (or reused from an interrupted search),
 * summarised as the search needs it (every SLO's margin, goodput), and the report brought up to date after each.
 */
public final class SearchRun {
    /** Runs one load point into its run directory {@code name} and returns what it measured. */
    @FunctionalInterface
    public interface LoadPoint {
        Measurement run(String name, MeasurementRequest request);
    }

    /** Sees the report as it stands after every probe. */
    @FunctionalInterface
    public interface Listener {
        void probed(SearchReport sofar, SearchProgress progress);
    }

    private final SearchSpec spec;
    private final RunInfo info;
    private final boolean simulated;
    private final LoadPoint point;
    private final ProbeShape shape;
    private final List<SearchReport.Probe> done = new ArrayList<>();
    private List<SearchReport.Probe> previous = List.of();
    private Predicate<SearchReport.Probe> finished = p -> false;
    private boolean replaying;
    private int reused;
    /** Whether the search checks that the server stayed the same (see {@link SearchDrift}). */
    private boolean checkDrift = true;

    private final List<SearchDrift.Check> driftChecks = new ArrayList<>();
    /** The probes of the search itself (no soak, no drift check), for the contradiction trigger. */
    private final List<SearchReport.Probe> plain = new ArrayList<>();
    /** A max-rate search's soaks: compared with each other only, a long measurement being meant to differ. */
    private final List<SearchReport.Probe> soaks = new ArrayList<>();
    /** Where a closed-loop search's server says it starts to queue, probed early; null when it does not say. */
    private QueueingPoint queueing;

    public SearchRun(SearchSpec spec, RunInfo info, boolean simulated, LoadPoint point) {
        Slo.requireSessionsFor(spec.slos(), spec.sessions() != null);
        this.spec = spec;
        this.info = info;
        this.simulated = simulated;
        this.point = point;
        this.shape = new ProbeShape(spec);
    }

    /**
     * Continue {@code interrupted}: while this search asks for the same load at the same position as it did, and
     * {@code finished} says that probe's directory is complete, the probe is reused, not measured again.
     *
     * @throws BadInputException when {@code interrupted} was run with other settings (reusing its probes would
     *                           answer a different question); the tolerance and probe budget may change
     */
    public SearchRun resuming(SearchReport interrupted, Predicate<SearchReport.Probe> finished) {
        sameSearch(interrupted);
        this.previous = interrupted.probes();
        this.finished = finished;
        this.replaying = true;
        if (interrupted.rampSeconds() > 0) shape.restore(interrupted.rampSeconds());
        return this;
    }

    private void sameSearch(SearchReport before) {
        same("{objective}", before.objective(), spec.objective().wireName());
        same(
                "{slo}",
                String.join(" ", before.slos().stream().map(Slo::text).toList()),
                String.join(" ", spec.slos().stream().map(Slo::text).toList()));
        same("{min}", before.min(), spec.min());
        same("{max}", before.max(), spec.max());
        same("{seed}", before.run().seed(), info.seed());
        same("workload", before.run().workload(), info.workload());
        same("{virtual}", before.simulated(), simulated);
        same(
                "{load-axis}",
                before.run().load().getClass().getSimpleName(),
                info.load().getClass().getSimpleName());
        // The embedded simulator listens on a new port each run: what it simulates identifies it.
        if (info.simulator() != null || before.run().simulator() != null) {
            same("simulator", before.run().simulator(), info.simulator());
        } else {
            same("{url}", before.run().url(), info.url());
        }
        if (spec.objective() == SearchSpec.Objective.MAX_GOODPUT
                && before.probes().stream()
                        .anyMatch(p -> Double.isNaN(p.goodput().value()))) {
            throw new BadInputException("{resume}: the search.json is from an older Headroom; start a new search");
        }
    }

    private static void same(String what, Object before, Object now) {
        boolean equal = before instanceof Double a && now instanceof Double b
                ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a))
                : Objects.equals(before, now);
        if (!equal) {
            throw new BadInputException("{resume}: " + what + " was " + before + " in the interrupted search, now "
                    + now + "; resume with the same options, or start a new search");
        }
    }

    /**
     * Starts from a pilot's lone request e2e: the first closed-loop probe spreads its users over one cycle estimated
     * from it ({@link ProbeShape#cycleFromLone}) instead of starting them at once.
     */
    public SearchRun knowingLone(double e2eSeconds) {
        shape.learnLone(e2eSeconds);
        return this;
    }

    /**
     * What the server states about itself: a closed-loop search (requests, not sessions) probes the concurrency at
     * which it says it starts to queue ({@link QueueingPoint}) early — max concurrency second, instead of ×8 from
     * {@code min}; max goodput in its initial design.
     */
    public SearchRun knowingServer(ServerFacts facts) {
        boolean applies = spec.integerLoad() && spec.sessions() == null;
        this.queueing = applies ? QueueingPoint.of(facts, spec.workload()).orElse(null) : null;
        return this;
    }

    /**
     * A max-concurrency search's batch cap read off a probe: the server streamed only the cap at once while more users
     * waited, so the search probed the cap next; empty when no probe showed one.
     */
    public Optional<BoundarySearch.ObservedCap> observedCap() {
        return Optional.ofNullable(observedCap);
    }

    private BoundarySearch.ObservedCap observedCap;

    /** The queueing point the search probes early, if the server stated one and it applies. */
    public Optional<QueueingPoint> queueingPoint() {
        return Optional.ofNullable(queueing);
    }

    /**
     * Whether to check for drift (on by default): the search's first passing load measured again at the end, and when
     * a probe contradicts an earlier one; one probe more (two at most). Off, the report has no {@code drift}.
     */
    public SearchRun checkingDrift(boolean on) {
        this.checkDrift = on;
        return this;
    }

    /** Probes reused from the interrupted search. */
    public int reused() {
        return reused;
    }

    public SearchReport run(Listener listener) {
        return spec.objective() == SearchSpec.Objective.MAX_GOODPUT ? goodput(listener) : boundary(listener);
    }

    private SearchReport boundary(Listener listener) {
        BoundarySearch bs = new BoundarySearch(spec);
        if (queueing != null) bs.hinting(queueing.load());
        boolean[] last = new boolean[2];
        BoundarySearch.Observer observer = (load, index) -> {
            SearchReport.Probe p = searched(load, last);
            List<Margin> margins = spec.slos().stream()
                    .map(s -> {
                        SearchReport.SloMargin m = p.margins().get(s.text());
                        return new Margin(s, m.value(), m.se(), (int) m.samples());
                    })
                    .toList();
            return new BoundarySearch.Observation(
                    load, margins, p.requests(), p.seconds(), p.batch().runningStreams(), p.e2eMeanSeconds());
        };
        BoundarySearch.Result result = bs.run(observer, observations -> {
            listener.probed(
                    boundaryReport(bs, observations, null), progress(last, bracket(bs.bracket(observations)), null));
            afterContradiction(listener);
        });
        observedCap = bs.observedCap().orElse(null);
        if (result.stopReason() != StopReason.BELOW_MIN) checkAgain(SearchDrift.Trigger.END, listener);
        return boundaryReport(bs, result.probes(), result);
    }

    private SearchReport goodput(Listener listener) {
        GoodputSearch gs = new GoodputSearch(spec);
        if (queueing != null && queueing.batchCap()) gs.cappedAt(queueing.load());
        else if (queueing != null) gs.hinting(queueing.load());
        boolean[] last = new boolean[2];
        GoodputSearch.Observer observer = (load, index) -> {
            if (gs.designDone()) shape.designDone();
            SearchReport.Probe p = searched(load, last);
            return new GoodputSearch.Observation(
                    load,
                    p.goodput().value(),
                    p.goodput().se(),
                    p.requests(),
                    p.seconds(),
                    p.batch().runningStreams(),
                    p.batch().queueRoom(),
                    p.batch().fillUsers(),
                    p.margins().values().stream()
                            .mapToDouble(SearchReport.SloMargin::value)
                            .max()
                            .orElse(Double.NaN));
        };
        GoodputSearch.Result result = gs.run(observer, observations -> {
            GoodputSearch.Observation best = observations.stream()
                    .max(Comparator.comparingDouble(GoodputSearch.Observation::goodput))
                    .orElseThrow();
            listener.probed(
                    goodputReport(null), progress(last, null, new SearchProgress.Best(best.load(), best.goodput())));
            afterContradiction(listener);
        });
        checkAgain(SearchDrift.Trigger.END, listener);
        return goodputReport(result);
    }

    /**
     * A probe the search asked for, at {@code load}; one that contradicts an earlier probe has a reference measured
     * again at once (once a search).
     */
    private SearchReport.Probe searched(double load, boolean[] last) {
        SearchReport.Probe p = at(load, last, false);
        List<SearchReport.Probe> alike = last[1] ? soaks : plain;
        boolean contradiction = checkDrift && driftChecks.isEmpty() && DriftCheck.contradicts(spec.slos(), alike, p);
        alike.add(p);
        // The search decides on this probe as it is; its progress line comes before the check that follows it.
        if (contradiction) pendingContradiction = true;
        return p;
    }

    /** A probe contradicted an earlier one: the reference is measured again right after that probe's progress line. */
    private boolean pendingContradiction;

    private void afterContradiction(Listener listener) {
        if (!pendingContradiction) return;
        pendingContradiction = false;
        // The contradicting probe itself is no reference: it is one of the two in question.
        checkAgain(SearchDrift.Trigger.CONTRADICTION, listener);
    }

    /**
     * The reference for a drift check: the search's first passing probe, measured earliest (the check spans the
     * search) and at a load where nothing queues, so its TPOT is the server's speed with little noise; null when none
     * passed. For a contradiction, one before the contradicting probe (which is one of the two in question).
     */
    private SearchReport.Probe reference(boolean beforeNewest) {
        List<SearchReport.Probe> candidates = beforeNewest ? plain.subList(0, plain.size() - 1) : plain;
        return candidates.stream().filter(SearchReport.Probe::pass).findFirst().orElse(null);
    }

    /** A reference measured again, compared with its first measurement, and shown as a progress line. */
    private void checkAgain(SearchDrift.Trigger trigger, Listener listener) {
        if (!checkDrift) return;
        SearchReport.Probe reference = reference(trigger == SearchDrift.Trigger.CONTRADICTION);
        if (reference == null) return;
        boolean[] last = new boolean[2];
        SearchReport.Probe again = at(reference.load(), last, true);
        SearchDrift.Check check = DriftCheck.compare(spec.slos(), reference, again, trigger, spec.tolerance());
        driftChecks.add(check);
        listener.probed(
                report(
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        null,
                        BoundaryType.UNKNOWN,
                        StopReason.RUNNING,
                        Map.of(),
                        null),
                new SearchProgress(last[0], 0, null, null, check));
    }

    private static SearchProgress.Bracket bracket(double[] b) {
        return new SearchProgress.Bracket(b[0], b[1]);
    }

    private static SearchProgress progress(boolean[] last, SearchProgress.Bracket bracket, SearchProgress.Best best) {
        return new SearchProgress(last[0], last[1] ? ProbeShape.SOAK_FACTOR : 0, bracket, best, null);
    }

    /**
     * The probe at {@code load}, the next position: reused if the interrupted search finished it, else run. A drift
     * check ({@code check}) is shaped as a first measurement at its load (never a soak) and teaches the probe shape
     * nothing: it looks back at the reference, it is no news for the probes that follow.
     */
    private SearchReport.Probe at(double load, boolean[] last, boolean check) {
        int index = done.size();
        last[1] = !check && shape.isSoak(load);
        if (replaying
                && index < previous.size()
                && sameLoad(previous.get(index).load(), load)
                && finished.test(previous.get(index))) {
            SearchReport.Probe p = previous.get(index);
            done.add(p);
            // The probes after it are shaped from what this one measured, exactly as in the interrupted run.
            if (!check) {
                shape.learnCycle(load, p.e2eMeanSeconds());
                shape.remember(load);
                if (!p.pass()) shape.failed();
            }
            reused++;
            last[0] = true;
            return p;
        }
        // From the first probe that differs (or was not finished), everything is measured afresh.
        replaying = false;
        last[0] = false;
        SearchReport.Probe p = measure(load, index, check);
        done.add(p);
        if (!check && !p.pass()) shape.failed();
        return p;
    }

    /** What a probe at {@code load}, position {@code index}, sends: shaped by what the search has seen so far. */
    private MeasurementRequest request(double load, int index, boolean soak) {
        return new MeasurementRequest(
                loadModel(load),
                spec.workload(),
                shape.forLoad(load, soak),
                spec.seed() + index,
                shape.stopRule(load, soak),
                0,
                0,
                spec.sessions());
    }

    private LoadModel loadModel(double load) {
        return spec.integerLoad()
                ? new LoadModel.Closed((int) Math.round(load))
                : new LoadModel.Open(load, spec.arrivals());
    }

    private static boolean sameLoad(double a, double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    }

    private SearchReport.Probe measure(double load, int index, boolean check) {
        LoadModel lm = loadModel(load);
        String name = spec.sessions() == null
                ? lm.pointName(index)
                : LoadModel.pointName(index, SessionSummary.loadLabel(lm));
        Measurement m = point.run(name, request(load, index, !check && shape.isSoak(load)));
        if (!check) shape.learn(m);
        boolean open = !spec.integerLoad();
        // A closed loop without sessions: each user is one request in flight, so Little's law and queue room apply.
        boolean usersInFlight = !open && spec.sessions() == null;
        Map<String, SearchReport.SloMargin> margins = new LinkedHashMap<>();
        boolean pass = true;
        for (Slo s : spec.slos()) {
            Margin mg = Margin.of(s, m.records(), open, spec.sessions());
            margins.put(s.text(), new SearchReport.SloMargin(mg.value(), mg.se(), mg.samples()));
            pass &= mg.passing();
        }
        // A closed loop's goodput in its steady state: good requests ÷ window reads a probe low by its drain, and by
        // less as probes grow, so probes of different lengths could not be compared.
        Goodput g = usersInFlight
                ? Goodput.steadyState(m.records(), (int) Math.round(load), spec.slos(), spec.goodputUnit())
                : Goodput.of(m.records(), open, spec.slos(), spec.goodputUnit());
        // What the probe showed of the server's batch (the queue room only where each user is one request in flight).
        double streams = RunningStreams.level(m.records());
        SearchReport.Batch batch = new SearchReport.Batch(
                streams,
                usersInFlight ? Goodput.queueRoom(m.records(), (int) Math.round(load), spec.slos()) : Double.NaN,
                usersInFlight ? RunningStreams.fillUsers(m.records(), streams) : Double.NaN);
        return new SearchReport.Probe(
                index + 1,
                load,
                margins,
                pass,
                new SearchReport.Estimate(g.value(), g.se()),
                m.records().size(),
                m.elapsedNanos() / 1e9,
                name,
                spec.integerLoad() ? ProbeShape.meanE2e(m) : Double.NaN,
                DriftCheck.tpot(m.records()),
                batch);
    }

    private SearchReport boundaryReport(
            BoundarySearch bs, List<BoundarySearch.Observation> observations, BoundarySearch.Result result) {
        Map<String, List<SearchReport.CurvePoint>> curves = bs.sampledCurves(observations);
        if (result == null) {
            return report(
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    observations.getLast().binding().slo().text(),
                    BoundaryType.UNKNOWN,
                    StopReason.RUNNING,
                    curves,
                    null);
        }
        return report(
                result.value(),
                result.ciLow(),
                result.ciHigh(),
                result.bindingSlo(),
                result.boundaryType(),
                result.stopReason(),
                curves,
                null);
    }

    private SearchReport goodputReport(GoodputSearch.Result result) {
        if (result == null) {
            return report(
                    Double.NaN, Double.NaN, Double.NaN, null, BoundaryType.PEAK, StopReason.RUNNING, Map.of(), null);
        }
        List<SearchReport.PosteriorPoint> posterior = new ArrayList<>();
        SearchReport.Kernel kernel = new SearchReport.Kernel(Double.NaN, Double.NaN, Double.NaN);
        if (result.posterior() != null) {
            GoodputSearch.Posterior p = result.posterior();
            double[] h = p.hyperparameters();
            kernel = new SearchReport.Kernel(h[0], h[1], h[2]);
            for (int i = 0; i < p.loads().length; i++)
                posterior.add(new SearchReport.PosteriorPoint(p.loads()[i], p.mean()[i], p.sd()[i]));
        }
        double[] plateau = result.plateau();
        SearchReport.GoodputResult g = new SearchReport.GoodputResult(
                spec.goodputUnit().wireName(),
                result.mean(),
                result.sd(),
                result.bestObserved().load(),
                result.bestObserved().goodput(),
                result.expectedImprovement(),
                posterior,
                kernel,
                result.batchCap(),
                result.batchCapSource() == null ? null : result.batchCapSource().wireName());
        return report(result.load(), plateau[0], plateau[1], null, BoundaryType.PEAK, result.stopReason(), Map.of(), g);
    }

    private SearchReport report(
            double value,
            double ciLow,
            double ciHigh,
            String binding,
            BoundaryType type,
            StopReason stop,
            Map<String, List<SearchReport.CurvePoint>> curves,
            SearchReport.GoodputResult g) {
        SearchDrift drift = null;
        if (!driftChecks.isEmpty()) {
            drift = new SearchDrift(driftChecks, ciLow, ciHigh);
            if (drift.detected() && stop != StopReason.RUNNING) {
                // A server that changed by c while it was searched may serve about c less or more than it was seen
                // to: capacity goes as the inverse of a request's cost.
                double by = 1 + Math.abs(drift.largest().change());
                if (!Double.isFinite(by)) by = 2;
                ciLow = spec.integerLoad() ? Math.floor(ciLow / by) : ciLow / by;
                ciHigh = spec.integerLoad() ? Math.ceil(ciHigh * by) : ciHigh * by;
            }
        }
        return new SearchReport(
                info,
                spec.objective().wireName(),
                spec.slos(),
                simulated,
                spec.min(),
                spec.max(),
                spec.tolerance(),
                value,
                ciLow,
                ciHigh,
                binding,
                type,
                stop,
                List.copyOf(done),
                curves,
                g,
                shape.rampSeconds(),
                drift);
    }
}
