package dev.headroom.optimizer;

import dev.headroom.model.BoundaryType;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.model.SloMetric;
import dev.headroom.model.StopReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Finds the largest load (concurrency or rate) that meets every SLO, in few probes:
 * <ol>
 *   <li>probe {@code min}; failing there means the boundary is below the range;</li>
 *   <li>bracket: after one probe, the load at which the server says it starts to queue ({@link #hinting}), then its
 *       tolerance edge, or further up where the wait each user past it adds meets the threshold ({@code
 *       queueLine}); without one, ×8; then extrapolate the binding margin against log(load) from the last two
 *       probes to its zero crossing, and jump there, never by less than ×1.25 or more than ×8 (no blind doubling);</li>
 *   <li>inside the bracket: weighted isotonic regression (PAVA) of each SLO's margin against log(load), weights
 *       1/se²; the binding curve is the largest of them, and a load passes or fails by it (so a probe that contradicts
 *       its neighbours within its noise is pooled with them); probe at its root, safeguarded for the knee of a latency
 *       curve (see {@code nextInside}). A jump in the margins the fit cannot follow is a cliff: from then on, geometric
 *       bisection;</li>
 *   <li>stop when the bracket is narrower than the tolerance (or, for integers, max-passing and min-failing are
 *       adjacent) and the answer is confirmed by a sure pass and a sure fail within the tolerance of it (else probe
 *       the weaker side's tolerance edge), at the probe limit, or when the boundary lies outside [min, max];</li>
 *   <li>max rate: every probe after the first failing one is a soak (longer — see {@link ProbeShape#SOAK_FACTOR});
 *       before stopping, a passing end measured only before it is soaked; a soak replaces the shorter probe, and one
 *       that reverses it moves the bracket.</li>
 * </ol>
 */
public final class BoundarySearch {
    private static final double CLIFF_JUMP = 1.0;
    /**
     * Standard errors from zero at which the fitted margin confirms a bracket end: values from 0.5 to 2 are alike in
     * accuracy, stricter ones cost probes (the figures: docs/search.md, "Why the constants are what they are").
     */
    static final double CONFIRM_Z = 1;

    private static final double CLIFF_RATIO = 1.3;
    /** Standard errors from zero under which a bracket's passing end is not sure (see nextInside). */
    static final double NEAR_Z = 1;
    /** Standard errors by which two failing margins must differ for the line through them to be extrapolated. */
    static final double SECANT_Z = 2;
    /** How far (a share of the way from the lowest load's margin to zero) the passing side may rise and be "flat". */
    static final double FLOOR_SHARE = 0.5;
    /** Bounds of a bracketing step, as a factor of the highest load measured. */
    private static final double MIN_STEP = 1.25, MAX_STEP = 8;
    /** The largest step past the queueing point: there the margin rises steeply, and a far probe teaches little. */
    private static final double QUEUE_STEP = 2;

    /** Measures one load point and returns its margins. */
    public interface Observer {
        Observation observe(double load, int probeIndex);
    }

    /**
     * One probe: its load, every SLO's margin, what it cost, how many requests the server streamed at once
     * ({@link RunningStreams}) and a request's mean e2e, send to last token (closed loop: the users' cycle); NaN when
     * unknown.
     */
    public record Observation(
            double load,
            List<Margin> margins,
            long requests,
            double seconds,
            double runningStreams,
            double e2eMeanSeconds) {
        /** An observation without a reading of the server's batch. */
        public Observation(double load, List<Margin> margins, long requests, double seconds) {
            this(load, margins, requests, seconds, Double.NaN);
        }

        /** An observation without its requests' mean e2e. */
        public Observation(double load, List<Margin> margins, long requests, double seconds, double runningStreams) {
            this(load, margins, requests, seconds, runningStreams, Double.NaN);
        }

        /** The largest margin: the SLO closest to (or furthest past) its threshold. */
        public Margin binding() {
            return margins.stream()
                    .max(Comparator.comparingDouble(Margin::value))
                    .orElseThrow();
        }

        public boolean passing() {
            return binding().value() < 0;
        }
    }

    /**
     * @param value        the boundary estimate (integer loads: the largest passing load)
     * @param ciLow        the largest load passing by the isotonic fit, below the first failing one (NaN when none
     *                     passed)
     * @param ciHigh       the smallest load failing by the isotonic fit (NaN when none failed)
     * @param boundaryType smooth or cliff
     * @param stopReason   tolerance, adjacent, max_probes, below_min, above_max
     */
    public record Result(
            double value,
            double ciLow,
            double ciHigh,
            String bindingSlo,
            BoundaryType boundaryType,
            StopReason stopReason,
            List<Observation> probes) {}

    private final SearchSpec spec;
    /** The load the server says it starts to queue at ({@link QueueingPoint}), probed second; NaN when none. */
    private double hint = Double.NaN;
    /**
     * The batch cap a closed-loop probe showed ({@link RunningStreams#cap}): more users than the server streamed at
     * once; NaN until one does. Probed next when it lies inside the bracket, and then its tolerance edge.
     */
    private double observedCap = Double.NaN;
    /** The users of the probe that showed {@link #observedCap}. */
    private double observedCapUsers = Double.NaN;
    /** Whether the observed cap, passing, has had its one probe above it ({@link #capInside}). */
    private boolean pastCap;

    /** A batch cap read off a probe: the server streamed at most {@code cap} requests at once with {@code users}. */
    public record ObservedCap(double cap, double users) {}

    public BoundarySearch(SearchSpec spec) {
        this.spec = spec;
    }

    /**
     * Probe {@code load} second, after {@code min}, instead of a blind ×8: the load at which the server says it starts
     * to queue. A boundary at a batch cap is then bracketed by that probe and its tolerance edge; ignored outside
     * (min, max).
     */
    public BoundarySearch hinting(double load) {
        this.hint = load > spec.min() && load < spec.max() ? load : Double.NaN;
        return this;
    }

    public Result run(Observer observer) {
        return run(observer, probes -> {});
    }

    /** Runs the search; {@code afterEachProbe} sees every probe so far as soon as one ends. */
    public Result run(Observer observer, Consumer<List<Observation>> afterEachProbe) {
        List<Observation> probes = new ArrayList<>();
        boolean cliff = false;
        double next = spec.min();
        while (true) {
            Observation raw = observer.observe(next, probes.size());
            probes.add(raw);
            learnCap(raw);
            afterEachProbe.accept(List.copyOf(probes));
            // An ambiguous verdict has already had more requests (ProbeShape). Measurements at one load (a confirming
            // probe repeated, or a resumed search) are pooled.
            if (probes.size() == 1 && !raw.passing()) return result(probes, StopReason.BELOW_MIN, false);
            Fitted fit = fitted(probes);
            int f = fit.lowestFailing();
            if (f < 0) {
                if (raw.load() >= spec.max()) return result(probes, StopReason.ABOVE_MAX, false);
                if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES, false);
                next = Math.min(spec.max(), bracketing(pooled(probes)));
                continue;
            }
            if (f == 0) return result(probes, StopReason.BELOW_MIN, false);
            double lo = fit.loads()[f - 1], hi = fit.loads()[f];
            double atCap = capInside(probes, lo, hi);
            if (!Double.isNaN(atCap)) {
                if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES, cliff);
                next = atCap;
                continue;
            }
            boolean adjacent = spec.integerLoad() && hi - lo <= 1;
            if (adjacent || (hi - lo) / lo < spec.tolerance()) {
                // The bracket is narrow, but its ends may be verdicts within the noise: the answer is known to the
                // tolerance only once a sure pass and a sure fail lie within it.
                double confirm = confirming(fit, estimate(fit, lo, hi, cliff));
                if (Double.isNaN(confirm)) {
                    double soak = soaking(probes, lo);
                    if (Double.isNaN(soak))
                        return result(probes, adjacent ? StopReason.ADJACENT : StopReason.TOLERANCE, cliff);
                    if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES, cliff);
                    next = soak;
                    continue;
                }
                if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES, cliff);
                // A sure fail is wanted no further than the bracket's own failing end: narrow the bracket instead,
                // which moves the estimate up and the tolerance edge with it.
                if (adjacent || !(confirm > lo && confirm <= hi)) {
                    next = confirm;
                    continue;
                }
            }
            if (probes.size() >= spec.maxProbes()) return result(probes, StopReason.MAX_PROBES, cliff);
            // Past the queueing point the margin is steep but straight (the wait grows with the users): no cliff.
            cliff |= hi / lo <= CLIFF_RATIO
                    && fit.binding(f) - fit.binding(f - 1) > CLIFF_JUMP
                    && !(lo >= queueingPoint());
            next = cliff ? Math.sqrt(lo * hi) : nextInside(fit, f, lo, hi);
            if (spec.integerLoad()) next = Math.max(lo + 1, Math.min(hi - 1, Math.round(next)));
        }
    }

    /**
     * Where to probe to confirm the estimate {@code v}, or NaN when it is confirmed: a sure pass measured in
     * [v (1 − tolerance), v] and a sure fail in (v, v (1 + tolerance)] (for concurrency, at least v + 1) — "sure"
     * meaning the isotonic fit there is {@link #CONFIRM_Z} standard errors from zero. Otherwise the weaker side's far
     * edge, where a sure verdict is likeliest; a probe there that contradicts the bracket moves it.
     */
    private double confirming(Fitted fit, double v) {
        double tol = spec.tolerance();
        double passEdge = Math.max(spec.min(), v * (1 - tol));
        double failEdge = Math.min(spec.max(), spec.integerLoad() ? Math.max(v + 1, v * (1 + tol)) : v * (1 + tol));
        double passZ = Double.NEGATIVE_INFINITY, failZ = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < fit.loads().length; i++) {
            double load = fit.loads()[i];
            if (load >= passEdge && load <= v) passZ = Math.max(passZ, fit.passZ(i));
            if (load > v && load <= failEdge) failZ = Math.max(failZ, fit.failZ(i));
        }
        if (passZ >= CONFIRM_Z && failZ >= CONFIRM_Z) return Double.NaN;
        boolean failSide = failZ < passZ;
        if (!spec.integerLoad()) return failSide ? failEdge : passEdge;
        return failSide ? Math.floor(failEdge) : Math.ceil(passEdge);
    }

    /**
     * Open loop: the final bracket's passing end {@code lo} when it was measured only before the first failing probe —
     * short, where a pass can be false (from the first fail on, every probe is a soak: {@link ProbeShape#isSoak});
     * NaN when there is nothing to soak (or for concurrency). A fail is not soaked: a short probe leans to a pass.
     */
    private double soaking(List<Observation> probes, double lo) {
        if (spec.integerLoad()) return Double.NaN;
        int firstFail = 0;
        while (firstFail < probes.size() && probes.get(firstFail).passing()) firstFail++;
        for (int i = firstFail; i < probes.size(); i++) if (probes.get(i).load() == lo) return Double.NaN;
        return lo;
    }

    /** The answer for the bracket [lo, hi]: for concurrency (or past a cliff) lo, else the fit's root. */
    private double estimate(Fitted fit, double lo, double hi, boolean cliff) {
        if (spec.integerLoad() || cliff) return lo;
        return Math.max(lo, Math.min(hi, fitRoot(fit, lo, hi)));
    }

    /**
     * Observations at the same load pooled into one, each SLO's margin weighted by 1/se². In load order. Open loop, a
     * load measured again was soaked, and the soak (the latest) replaces the shorter probes: they differ by more than
     * noise (a short window misses the excursions a long one sees), so averaging them would keep the bias.
     */
    private List<Observation> pooled(List<Observation> probes) {
        List<Observation> out = new ArrayList<>();
        probes.stream().map(Observation::load).distinct().sorted().forEach(load -> {
            List<Observation> at = probes.stream().filter(p -> p.load() == load).toList();
            if (at.size() == 1 || !spec.integerLoad()) {
                out.add(at.getLast());
                return;
            }
            List<Margin> margins = new ArrayList<>();
            for (int s = 0; s < at.getFirst().margins().size(); s++) {
                double sw = 0, swv = 0;
                int n = 0;
                for (Observation o : at) {
                    Margin m = o.margins().get(s);
                    double w = weight(m);
                    sw += w;
                    swv += w * m.value();
                    n += m.samples();
                }
                margins.add(new Margin(at.getFirst().margins().get(s).slo(), swv / sw, Math.sqrt(1 / sw), n));
            }
            out.add(new Observation(
                    load,
                    margins,
                    at.stream().mapToLong(Observation::requests).sum(),
                    at.stream().mapToDouble(Observation::seconds).sum(),
                    Double.NaN,
                    at.stream()
                            .mapToDouble(Observation::e2eMeanSeconds)
                            .average()
                            .orElse(Double.NaN)));
        });
        return out;
    }

    /**
     * The next load while every probe passes: the hint while it lies above them; with the hint the highest pass, its
     * tolerance edge (where a boundary at a cap is confirmed); else {@link #extrapolate}.
     */
    private double bracketing(List<Observation> probes) {
        double top = probes.getLast().load();
        double hint = queueingPoint();
        if (Double.isNaN(hint)) return extrapolate(probes);
        if (top < hint) return hint;
        double next = top == hint ? afterQueueingPoint(probes.getLast()) : pastQueueing(probes);
        return spec.integerLoad() ? Math.max(top + 1, Math.floor(next)) : next;
    }

    /**
     * The queueing point passing: its tolerance edge, where a boundary at a full batch is confirmed — or, when the wait
     * each user past it adds ({@link #queueLine}) reaches the threshold further up, there (at most {@link #QUEUE_STEP}
     * ×).
     */
    private double afterQueueingPoint(Observation atPoint) {
        double queued = queueLine(atPoint);
        return Double.isNaN(queued) ? atPoint.load() * (1 + spec.tolerance()) : queueStep(atPoint, queued);
    }

    /** {@code aim} kept at least the tolerance above {@code from}'s load and at most {@link #QUEUE_STEP} × it. */
    private double queueStep(Observation from, double aim) {
        return Math.max(from.load() * (1 + spec.tolerance()), Math.min(from.load() * QUEUE_STEP, aim));
    }

    /**
     * Where requests start to wait for a place: the smaller of the server's own statement ({@link #hinting}) and the
     * batch cap a probe showed; NaN when neither is known.
     */
    private double queueingPoint() {
        if (Double.isNaN(observedCap)) return hint;
        return Double.isNaN(hint) ? observedCap : Math.min(hint, observedCap);
    }

    /** Learns the batch cap a closed-loop probe (requests, not sessions) shows, once. */
    private void learnCap(Observation o) {
        if (!spec.integerLoad() || spec.sessions() != null || !Double.isNaN(observedCap)) return;
        double cap = RunningStreams.cap(o.load(), o.runningStreams(), spec.tolerance());
        if (cap > spec.min() && cap < spec.max()) {
            observedCap = cap;
            observedCapUsers = o.load();
        }
    }

    /** The batch cap a probe showed, if one has. */
    public java.util.Optional<ObservedCap> observedCap() {
        return Double.isNaN(observedCap)
                ? java.util.Optional.empty()
                : java.util.Optional.of(new ObservedCap(observedCap, observedCapUsers));
    }

    /**
     * With a batch cap shown inside the bracket (lo, hi): the cap, unprobed; then, the cap passing, once, what {@link
     * #afterQueueingPoint} says when that lies below hi — most boundaries past a full batch lie at its tolerance edge
     * (up to it latency grows slowly, past it every new user waits), and those two probes settle one there. NaN
     * otherwise.
     */
    private double capInside(List<Observation> probes, double lo, double hi) {
        double cap = observedCap;
        if (Double.isNaN(cap)) return Double.NaN;
        if (cap > lo && cap < hi && probes.stream().noneMatch(o -> o.load() == cap)) return cap;
        if (cap != lo || pastCap) return Double.NaN;
        double edge = Math.max(cap + 1, Math.floor(cap * (1 + spec.tolerance())));
        double next = Math.max(
                edge,
                Math.floor(afterQueueingPoint(pooled(probes).stream()
                        .filter(o -> o.load() == cap)
                        .findFirst()
                        .orElseThrow())));
        if (next >= hi) return Double.NaN;
        pastCap = true;
        return next;
    }

    /**
     * Past the queueing point, where the line through the two highest probes, linear in load, crosses zero: there a
     * closed loop's extra users wait for a place, and the wait grows linearly with them (Little's law). At least the
     * tolerance above the highest probe, at most {@link #QUEUE_STEP}×.
     */
    private double pastQueueing(List<Observation> probes) {
        Observation a = probes.get(probes.size() - 2), b = probes.getLast();
        double queued = queueLine(b);
        if (!Double.isNaN(queued)) return queueStep(b, queued);
        double ya = a.binding().value(), yb = b.binding().value();
        // Not rising beyond the noise: a wait that has barely begun; a bracketing step's smallest.
        if (yb - ya <= SECANT_Z * Math.hypot(a.binding().se(), b.binding().se())) return b.load() * MIN_STEP;
        return queueStep(b, b.load() - yb * (b.load() - a.load()) / (yb - ya));
    }

    /**
     * Past a full batch, where a latency that includes the wait for a place ({@link SloMetric#queued}) reaches its
     * threshold, from one passing probe: a closed loop of n users cycling every e2e seconds completes n ÷ e2e requests
     * a second, and each user more waits one completion longer (Little's law), so the margin rises by e2e ÷ n ÷
     * threshold a user. Aimed half the tolerance short of that crossing: a p95 wait grows a little faster than the
     * mean, so the crossing most often lies just past the boundary, and a pass within the tolerance below it is settled
     * by one probe above. NaN when it does not apply (a rate or another metric, sessions, or no e2e measured).
     */
    private double queueLine(double load, Slo slo, double margin, double e2eSeconds) {
        if (!spec.integerLoad()
                || spec.sessions() != null
                || !slo.metric().queued()
                || slo.metric().isRate()) return Double.NaN;
        if (!(e2eSeconds > 0) || !(margin < 0)) return Double.NaN;
        double perUser = e2eSeconds / load / (slo.threshold() / 1000);
        return (load - margin / perUser) * (1 - spec.tolerance() / 2);
    }

    /** {@link #queueLine} from a probe's binding margin. */
    private double queueLine(Observation o) {
        Margin m = o.binding();
        return queueLine(o.load(), m.slo(), m.value(), o.e2eMeanSeconds());
    }

    /** Jump to where the line through the last two probes' binding margins (vs log load) crosses zero. */
    private double extrapolate(List<Observation> probes) {
        // Pooled observations are in load order: the last two are the highest loads measured.
        Observation b = probes.getLast();
        double cur = b.load();
        // With one probe there is no slope to extrapolate: take the largest step. A probe past the boundary is cheap
        // (a sure fail stops early) and brackets it; doubling from 1 spends a probe learning that 2 users are fine.
        double n = cur * Math.max(MIN_STEP, Math.min(MAX_STEP, crossingStep(probes)));
        return spec.integerLoad() ? Math.max(cur + 1, Math.round(n)) : n;
    }

    /**
     * How far above the highest probe the line through the two highest (binding margin against log load) crosses
     * zero, as a factor; infinite when there is no slope (one probe, or a margin not rising: the boundary is far).
     */
    private static double crossingStep(List<Observation> probes) {
        if (probes.size() < 2) return Double.POSITIVE_INFINITY;
        Observation a = probes.get(probes.size() - 2), b = probes.getLast();
        double x1 = Math.log(a.load()), x2 = Math.log(b.load());
        double y1 = a.binding().value(), y2 = b.binding().value();
        if (x2 == x1 || y2 <= y1) return Double.POSITIVE_INFINITY;
        return Math.exp((0 - y2) * (x2 - x1) / (y2 - y1));
    }

    /** Each SLO's isotonic fit of margin against log(load), in SLO order (empty with fewer than one probe). */
    public List<MonotoneCurve> curves(List<Observation> probes) {
        return curves(fitted(probes));
    }

    /** Loads at which {@link #sampledCurves} samples each fit. */
    static final int CURVE_POINTS = 41;

    /**
     * Each SLO's isotonic fit sampled at {@value #CURVE_POINTS} loads spaced evenly in log between the lowest and
     * highest load measured, keyed by the SLO's text, in SLO order: the curves results draw.
     */
    public Map<String, List<SearchReport.CurvePoint>> sampledCurves(List<Observation> probes) {
        Map<String, List<SearchReport.CurvePoint>> out = new LinkedHashMap<>();
        List<MonotoneCurve> fits = curves(probes);
        double lo = probes.stream().mapToDouble(Observation::load).min().orElse(1);
        double hi = probes.stream().mapToDouble(Observation::load).max().orElse(1);
        for (int s = 0; s < fits.size(); s++) {
            List<SearchReport.CurvePoint> pts = new ArrayList<>();
            for (int k = 0; k < CURVE_POINTS; k++) {
                double x = Math.log(lo) + (Math.log(hi) - Math.log(lo)) * k / (CURVE_POINTS - 1.0);
                pts.add(new SearchReport.CurvePoint(Math.exp(x), fits.get(s).value(x)));
            }
            out.put(spec.slos().get(s).text(), pts);
        }
        return out;
    }

    /** Root of the binding isotonic fit within the bracket. */
    private static double fitRoot(Fitted fit, double lo, double hi) {
        List<MonotoneCurve> curves = curves(fit);
        double a = Math.log(lo), b = Math.log(hi);
        // The binding curve is the max of monotone curves: monotone, so bisection finds its root.
        for (int it = 0; it < 60; it++) {
            double mid = (a + b) / 2;
            double v = Double.NEGATIVE_INFINITY;
            for (MonotoneCurve c : curves) v = Math.max(v, c.value(mid));
            if (v >= 0) b = mid;
            else a = mid;
        }
        return Math.exp((a + b) / 2);
    }

    private static List<MonotoneCurve> curves(Fitted fit) {
        double[] x = Arrays.stream(fit.loads()).map(Math::log).toArray();
        List<MonotoneCurve> curves = new ArrayList<>();
        for (double[] values : fit.values()) curves.add(new MonotoneCurve(x, values));
        return curves;
    }

    /**
     * Each SLO's weighted isotonic fit (PAVA, weights 1/se²) of margin against load at the distinct loads measured,
     * with each fitted value's standard error (1/√ of its pool's weight).
     */
    record Fitted(double[] loads, double[][] values, double[][] se, double[] e2eMeanSeconds) {
        /** The binding (largest) fitted margin at load index i. */
        double binding(int i) {
            double b = Double.NEGATIVE_INFINITY;
            for (double[] v : values) b = Math.max(b, v[i]);
            return b;
        }

        /** Which SLO binds (has the largest fitted margin) at load index i. */
        int bindingSlo(int i) {
            int b = 0;
            for (int s = 1; s < values.length; s++) if (values[s][i] > values[b][i]) b = s;
            return b;
        }

        /** The standard error of the binding fitted margin at load index i. */
        double bindingSe(int i) {
            return se[bindingSlo(i)][i];
        }

        /** Index of the lowest load whose binding fitted margin is not below zero; -1 when every load passes. */
        int lowestFailing() {
            for (int i = 0; i < loads.length; i++) if (binding(i) >= 0) return i;
            return -1;
        }

        /** {max passing, min failing}: NaN for an end not yet measured. */
        double[] bracket() {
            int f = lowestFailing();
            int p = f < 0 ? loads.length - 1 : f - 1;
            return new double[] {p < 0 ? Double.NaN : loads[p], f < 0 ? Double.NaN : loads[f]};
        }

        /** How sure a pass at load index i is: the smallest of the SLOs' −margin ÷ se. */
        double passZ(int i) {
            double z = Double.POSITIVE_INFINITY;
            for (int s = 0; s < values.length; s++) z = Math.min(z, -values[s][i] / se[s][i]);
            return z;
        }

        /** How sure a fail at load index i is: the largest of the SLOs' margin ÷ se. */
        double failZ(int i) {
            double z = Double.NEGATIVE_INFINITY;
            for (int s = 0; s < values.length; s++) z = Math.max(z, values[s][i] / se[s][i]);
            return z;
        }
    }

    private Fitted fitted(List<Observation> probes) {
        // Measurements at one load are pooled first, weighted by 1/se².
        List<Observation> atLoads = pooled(probes);
        double[] loads = atLoads.stream().mapToDouble(Observation::load).toArray();
        int slos = spec.slos().size();
        double[][] values = new double[slos][], se = new double[slos][];
        for (int s = 0; s < slos; s++) {
            final int slo = s;
            double[] y = atLoads.stream()
                    .mapToDouble(o -> o.margins().get(slo).value())
                    .toArray();
            double[] w = atLoads.stream()
                    .mapToDouble(o -> weight(o.margins().get(slo)))
                    .toArray();
            Pava.Fit fit = Pava.fitWithWeights(y, w);
            values[s] = fit.values();
            se[s] = Arrays.stream(fit.weights()).map(x -> 1 / Math.sqrt(x)).toArray();
        }
        return new Fitted(
                loads,
                values,
                se,
                atLoads.stream().mapToDouble(Observation::e2eMeanSeconds).toArray());
    }

    /** A margin's inverse-variance weight. */
    private static double weight(Margin m) {
        return 1 / Math.max(1e-12, m.se() * m.se());
    }

    /**
     * The next probe inside the bracket [lo, hi] ({@code f}: hi's index in the fit). When the fit's root lies within
     * the tolerance of lo and lo's pass is not sure (under {@link #NEAR_Z} se), lo's tolerance edge: the boundary is
     * likely that close, and a probe there settles it (unless lo was itself such an edge). Otherwise the fit's root
     * (its chord across the bracket), raised to
     * <ul>
     *   <li>the failing side's secant, when the two lowest failing loads' fitted margins differ by more than
     *       {@link #SECANT_Z} se: where the line through them, linear in load, crosses zero. Past saturation latency
     *       grows linearly with load (closed loop: Little's law, e2e = users ÷ throughput; open loop: the queue grows
     *       by λ − μ a second), and for a margin convex in load that line crosses zero at or above the boundary, as
     *       the chord does at or below it;</li>
     *   <li>with one failing load (open loop: or a secant landing within 10 % of the bracket above lo, where it says
     *       nothing), the bracket's geometric middle when the passing side is still near its floor (risen
     *       less than {@link #FLOOR_SHARE} of the way from the lowest load's margin to zero): the margin is flat up to
     *       a knee and then steep, the chord's root sits just above lo, and the search would creep up the flat part by
     *       the 10 % clamp;</li>
     * </ul>
     * and kept at least 10 % of the bracket away from either end.
     */
    private double nextInside(Fitted fit, int f, double lo, double hi) {
        double chord = fitRoot(fit, lo, hi);
        double passEdge = lo * (1 + spec.tolerance());
        if (spec.integerLoad()) passEdge = Math.floor(passEdge);
        double[] loads = fit.loads();
        // Not when lo was itself such an edge (a pass measured within the tolerance below it): on a margin flat near
        // zero that would creep up by the tolerance.
        boolean passBelow = f >= 2 && loads[f - 2] >= lo * (1 - spec.tolerance());
        if (chord <= passEdge && passEdge < hi && fit.passZ(f - 1) < NEAR_Z && !passBelow) return passEdge;
        double aim = chord;
        double margin = (hi - lo) * 0.1;
        boolean secant = false;
        if (f + 1 < loads.length
                && fit.binding(f + 1) - fit.binding(f)
                        > SECANT_Z * Math.hypot(fit.bindingSe(f), fit.bindingSe(f + 1))) {
            double m0 = fit.binding(f), m1 = fit.binding(f + 1);
            double line = loads[f] - m0 * (loads[f + 1] - loads[f]) / (m1 - m0);
            // Open loop, a line landing at the bracket's passing end says nothing (the margin is flat there, steep
            // past capacity): the flat side's rule applies instead.
            secant = spec.integerLoad() || line > lo + margin;
            aim = Math.max(aim, line);
        }
        if (!secant
                && f >= 2
                && !(lo >= queueingPoint())
                && fit.binding(f - 1) - fit.binding(0) < FLOOR_SHARE * -fit.binding(0)) {
            aim = Math.max(aim, Math.sqrt(lo * hi));
        }
        // Past the queueing point, no line from the failing side yet: where the wait each user adds reaches the
        // threshold (queueLine), else the line through the two highest passes, linear in load, as when bracketing past
        // it. The chord's root of a bracket reaching far past it sits at the pass, and the 10 % clamp would probe a
        // tenth of the way up.
        if (!secant && lo >= queueingPoint()) {
            int s = fit.bindingSlo(f - 1);
            double queued = queueLine(lo, spec.slos().get(s), fit.values()[s][f - 1], fit.e2eMeanSeconds()[f - 1]);
            // At least lo's tolerance edge: an aim just above lo would creep up by a user at a time.
            if (!Double.isNaN(queued) && Math.max(passEdge, queued) < hi) return Math.max(passEdge, queued);
        }
        if (!secant
                && f >= 2
                && loads[f - 2] >= queueingPoint()
                && fit.binding(f - 1) - fit.binding(f - 2)
                        > SECANT_Z * Math.hypot(fit.bindingSe(f - 2), fit.bindingSe(f - 1))) {
            double m0 = fit.binding(f - 2), m1 = fit.binding(f - 1);
            double line = lo - m1 * (lo - loads[f - 2]) / (m1 - m0);
            if (line > lo && line < hi - margin) return line;
        }
        return Math.max(lo + margin, Math.min(hi - margin, aim));
    }

    /**
     * The current bracket {max passing, min failing} by the isotonic fit of the probes so far; NaN for an end not yet
     * measured.
     */
    public double[] bracket(List<Observation> probes) {
        return probes.isEmpty()
                ? new double[] {Double.NaN, Double.NaN}
                : fitted(probes).bracket();
    }

    private Result result(List<Observation> probes, StopReason reason, boolean cliff) {
        Fitted fit = fitted(probes);
        int f = fit.lowestFailing();
        double[] b = fit.bracket();
        double lo = b[0], hi = b[1];
        double value = !Double.isNaN(lo) && !Double.isNaN(hi) ? estimate(fit, lo, hi, cliff) : lo;
        int binding = fit.bindingSlo(f >= 0 ? f : fit.loads().length - 1);
        return new Result(
                value,
                lo,
                hi,
                spec.slos().get(binding).text(),
                cliff ? BoundaryType.CLIFF : BoundaryType.SMOOTH,
                reason,
                List.copyOf(probes));
    }
}
