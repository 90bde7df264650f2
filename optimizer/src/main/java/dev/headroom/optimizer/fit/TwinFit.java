package dev.headroom.optimizer.fit;

import dev.headroom.model.Measurement;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.Parameter;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.model.fit.TargetValues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.apache.commons.math3.optim.univariate.BrentOptimizer;
import org.apache.commons.math3.optim.univariate.SearchInterval;
import org.apache.commons.math3.optim.univariate.UnivariateObjectiveFunction;

/**
 * Fits a {@link ParametricServer}'s parameters to observations: robust least squares on log errors (every observed
 * number counts alike, an error of +20 % as much as one of −17 %), with a weak pull towards each parameter's prior,
 * minimised block by block (the global parameters, then each group's) with BOBYQA from Commons Math, for a few rounds.
 * {@link #crossValidated} also fits without each fold of sources and predicts that fold: the error a user should
 * expect on a workload the fit never saw.
 */
public final class TwinFit {
    /** Scale of the robust loss: below it an error counts as its square, above it about as its size. */
    private static final double SOFT = 0.05;
    /** Loss of a target the model could not predict at all (no completed request). */
    private static final double MISSING = 5;

    /**
     * @param priorWeight pull towards the priors, per parameter, in units of the range squared
     * @param rounds      passes over the blocks
     * @param evaluations most loss evaluations per block and round
     */
    public record Settings(double priorWeight, int rounds, int evaluations) {
        public static Settings defaults() {
            return new Settings(0.02, 3, 120);
        }
    }

    private final ParametricServer server;
    private final Settings settings;
    private final AtomicLong evaluations = new AtomicLong();
    private java.util.function.Consumer<String> progress = line -> {};

    public TwinFit(ParametricServer server, Settings settings) {
        this.server = server;
        this.settings = settings;
    }

    /** Says what each block of each round did, one line each. */
    public TwinFit withProgress(java.util.function.Consumer<String> progress) {
        this.progress = progress;
        return this;
    }

    /** Fits on every observation; no held-out figures. */
    public FitReport fit(List<Observation> observations) {
        double[] values = fitValues(observations);
        return new FitReport(
                server.parameters(), values, compare(values, observations, false), List.of(), evaluations.get());
    }

    /**
     * Fits on every observation, and for each of {@code folds} folds of the sources (balanced by observations)
     * fits without that fold and predicts it.
     */
    public FitReport crossValidated(List<Observation> observations, int folds) {
        return crossValidated(observations, folds, Observation::source);
    }

    /**
     * As {@link #crossValidated(List, int)}, with folds of the units {@code unit} names (a source, a GPU, an engine
     * release): each unit is predicted by a fit that saw none of its points. {@code folds} at least the number of
     * units leaves one unit out at a time.
     */
    public FitReport crossValidated(List<Observation> observations, int folds, Function<Observation, String> unit) {
        List<Comparison> heldOut = heldOut(observations, folds, unit);
        double[] values = fitValues(observations);
        return new FitReport(
                server.parameters(), values, compare(values, observations, false), heldOut, evaluations.get());
    }

    /** For each of {@code folds} folds of the sources, a fit without that fold and its predictions of the fold. */
    public List<Comparison> heldOut(List<Observation> observations, int folds) {
        return heldOut(observations, folds, Observation::source);
    }

    /** For each of {@code folds} folds of the units {@code unit} names, a fit without them and its predictions. */
    public List<Comparison> heldOut(List<Observation> observations, int folds, Function<Observation, String> unit) {
        List<Comparison> heldOut = new ArrayList<>();
        for (List<String> fold : folds(observations, folds, unit)) {
            List<Observation> train = new ArrayList<>(), test = new ArrayList<>();
            for (Observation o : observations) (fold.contains(unit.apply(o)) ? test : train).add(o);
            if (test.isEmpty() || train.isEmpty()) continue;
            double[] values = fitValues(train);
            progress.accept("fold without " + String.join(", ", fold) + ": " + describe(values));
            heldOut.addAll(compare(values, test, true));
        }
        return heldOut;
    }

    /** Every parameter's value, {@code name[group]=value}, for a progress line. */
    private String describe(double[] values) {
        StringBuilder b = new StringBuilder();
        List<Parameter> params = server.parameters();
        for (int i = 0; i < values.length; i++) {
            Parameter p = params.get(i);
            b.append(i == 0 ? "" : " ")
                    .append(p.name())
                    .append(p.group() == null ? "" : "[" + p.group() + "]")
                    .append(String.format(java.util.Locale.ROOT, "=%.4g", values[i]));
        }
        return b.toString();
    }

    /** The sources split into {@code k} folds of about equal observation counts (largest sources placed first). */
    static List<List<String>> folds(List<Observation> observations, int k) {
        return folds(observations, k, Observation::source);
    }

    /**
     * The units split into {@code k} folds of about equal observation counts (largest units placed first); with
     * {@code k} at least the number of units, one fold per unit.
     */
    static List<List<String>> folds(List<Observation> observations, int k, Function<Observation, String> unit) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Observation o : observations) counts.merge(unit.apply(o), 1, Integer::sum);
        k = Math.min(k, counts.size());
        List<String> sources = new ArrayList<>(counts.keySet());
        sources.sort(Comparator.comparing((String s) -> -counts.get(s)).thenComparing(s -> s));
        List<List<String>> folds = new ArrayList<>();
        int[] sizes = new int[k];
        for (int i = 0; i < k; i++) folds.add(new ArrayList<>());
        for (String s : sources) {
            int f = 0;
            for (int i = 1; i < k; i++) if (sizes[i] < sizes[f]) f = i;
            folds.get(f).add(s);
            sizes[f] += counts.get(s);
        }
        return folds;
    }

    /** Each observation's targets beside the predictions of {@code values}. */
    public List<Comparison> compare(double[] values, List<Observation> observations, boolean heldOut) {
        List<double[]> predicted =
                observations.parallelStream().map(o -> predict(values, o)).toList();
        List<Comparison> out = new ArrayList<>();
        for (int i = 0; i < observations.size(); i++) {
            Observation o = observations.get(i);
            for (int t = 0; t < o.targets().size(); t++) {
                out.add(new Comparison(o, o.targets().get(t), predicted.get(i)[t], heldOut));
            }
        }
        return out;
    }

    /** The model's value of each of {@code o}'s targets; NaN where it has none. */
    public double[] predict(double[] values, Observation o) {
        evaluations.incrementAndGet();
        Measurement m = server.measurer(values, o).measure(o.request());
        return TargetValues.of(m.records(), o.request().openLoop(), o.targets());
    }

    private double[] fitValues(List<Observation> observations) {
        List<Parameter> params = server.parameters();
        double[] values = new double[params.size()];
        for (int i = 0; i < values.length; i++) values[i] = params.get(i).prior();
        // Blocks: the global parameters, then each group's (only groups some observation here belongs to).
        Map<String, List<Integer>> blocks = new LinkedHashMap<>();
        for (int i = 0; i < params.size(); i++) {
            String g = params.get(i).group();
            blocks.computeIfAbsent(g == null ? "" : g, x -> new ArrayList<>()).add(i);
        }
        for (int round = 0; round < settings.rounds(); round++) {
            for (var block : blocks.entrySet()) {
                Parameter first = params.get(block.getValue().getFirst());
                List<Observation> affected =
                        observations.stream().filter(first::appliesTo).toList();
                if (affected.isEmpty()) continue;
                long before = evaluations.get();
                minimise(values, block.getValue(), affected);
                progress.accept(String.format(
                        java.util.Locale.ROOT,
                        "round %d/%d, %s: %d load points, %d simulated",
                        round + 1,
                        settings.rounds(),
                        block.getKey().isEmpty() ? "shared terms" : block.getKey(),
                        affected.size(),
                        evaluations.get() - before));
            }
        }
        return values;
    }

    /** Minimises the loss over the parameters {@code idx} of {@code values} (in place), the others held. */
    private void minimise(double[] values, List<Integer> idx, List<Observation> affected) {
        List<Parameter> params = server.parameters();
        int d = idx.size();
        double[] start = new double[d];
        for (int j = 0; j < d; j++) start[j] = params.get(idx.get(j)).unit(values[idx.get(j)]);
        double[] best = start.clone();
        double[] bestLoss = {Double.POSITIVE_INFINITY};
        java.util.function.ToDoubleFunction<double[]> f = u -> {
            double[] v = values.clone();
            for (int j = 0; j < d; j++) v[idx.get(j)] = params.get(idx.get(j)).at(u[j]);
            double loss = loss(v, affected);
            for (int j = 0; j < d; j++) {
                Parameter p = params.get(idx.get(j));
                double dev = u[j] - p.unit(p.prior());
                loss += settings.priorWeight() * dev * dev * affected.size();
            }
            synchronized (bestLoss) {
                if (loss < bestLoss[0]) {
                    bestLoss[0] = loss;
                    System.arraycopy(u, 0, best, 0, d);
                }
            }
            return loss;
        };
        try {
            if (d == 1) {
                new BrentOptimizer(1e-4, 1e-4)
                        .optimize(
                                new MaxEval(settings.evaluations()),
                                new UnivariateObjectiveFunction(x -> f.applyAsDouble(new double[] {x})),
                                GoalType.MINIMIZE,
                                new SearchInterval(0, 1, Math.max(0, Math.min(1, start[0]))));
            } else {
                double[] lo = new double[d], hi = new double[d];
                java.util.Arrays.fill(hi, 1);
                new BOBYQAOptimizer(2 * d + 1, 0.15, 1e-3)
                        .optimize(
                                new MaxEval(settings.evaluations()),
                                new ObjectiveFunction(f::applyAsDouble),
                                GoalType.MINIMIZE,
                                new InitialGuess(start),
                                new SimpleBounds(lo, hi));
            }
        } catch (TooManyEvaluationsException e) {
            // The best point seen so far stands.
        }
        for (int j = 0; j < d; j++) values[idx.get(j)] = params.get(idx.get(j)).at(best[j]);
    }

    /** Sum over every target of the robust loss of its log error. */
    private double loss(double[] values, List<Observation> observations) {
        return observations.parallelStream()
                .mapToDouble(o -> {
                    double[] p = predict(values, o);
                    double sum = 0;
                    for (int t = 0; t < p.length; t++) {
                        double r = Math.log(p[t] / o.targets().get(t).value());
                        sum += Double.isFinite(r) ? Math.sqrt(r * r + SOFT * SOFT) - SOFT : MISSING;
                    }
                    return sum;
                })
                .sum();
    }

    /** Load points run so far. */
    public long evaluations() {
        return evaluations.get();
    }

    @Override
    public String toString() {
        return "TwinFit[" + Objects.toString(server) + "]";
    }
}
