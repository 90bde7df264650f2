package dev.headroom.optimizer.fit;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.SloStat;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.model.fit.Target;
import dev.headroom.model.fit.TargetValues;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The batch cap of a twin, from how many requests the saturated server was read to serve at once
 * ({@link CalibrationPlan#servedAtOnce}). The reading is biased — below the cap where prompts wait for prefill steps
 * of their own (their TTFT counts as waiting), a little below it anywhere (the users between a request's end and
 * their next) — and a twin of the right shape has the same bias, so the cap is the one at which the twin, read the
 * same way on the same probes, serves as many at once as the server did; then the caps a few per cent either side
 * are tried on the saturating probe itself, whose throughput jumps where the cap divides its users into whole
 * waves (fixed lengths keep closed-loop users nearly in step), and the one that reproduces it best is kept.
 */
public final class CapMatch {
    private static final int ROUNDS = 6;
    /** The caps tried around the matched one, as fractions of it. */
    private static final double LOWER = 0.97, UPPER = 1.06;
    /** Loss of a target the twin could not predict. */
    private static final double MISSING = 25;

    private static final List<Target> READ =
            List.of(new Target(ObservedMetric.TTFT, SloStat.P50, 1), new Target(ObservedMetric.E2E, SloStat.P50, 1));

    private CapMatch() {}

    /**
     * @param twinWithCap the twin with a given cap, at its starting values (its parameters' priors)
     * @param saturate    the saturating probe ({@code users} closed-loop users)
     * @param unloaded    the one-user probe at the saturating probe's prompt length
     * @param served      requests the server was read to serve at once
     * @param read        the cap first read from {@code served}
     * @return the cap, between 1 and twice {@code users}; {@code read} where the twin cannot be read
     */
    public static int match(
            IntFunction<? extends ParametricServer> twinWithCap,
            Observation saturate,
            Observation unloaded,
            int users,
            double served,
            int read) {
        // One user never meets the cap: the twin's unloaded TTFT is the same whatever the cap.
        ParametricServer first = twinWithCap.apply(read);
        double unloadedTtft = read(first, priors(first), unloaded, READ)[0];
        int cap = read;
        for (int round = 0; round < ROUNDS; round++) {
            double twin = servedAtOnce(twinWithCap.apply(cap), saturate, unloadedTtft, users);
            if (!(twin > 0)) return read;
            int next = (int) Math.max(1, Math.min(2L * users, Math.round(cap * served / twin)));
            if (next == cap) break;
            cap = next;
        }
        return nearby(twinWithCap, saturate, cap, 2 * users);
    }

    /** The cap within {@code LOWER}..{@code UPPER} of {@code cap} whose twin reproduces {@code saturate} best. */
    private static int nearby(
            IntFunction<? extends ParametricServer> twinWithCap, Observation saturate, int cap, int most) {
        int from = (int) Math.max(1, Math.min(cap - 1, Math.floor(cap * LOWER)));
        int to = (int) Math.min(most, Math.max(cap + 1, Math.ceil(cap * UPPER)));
        int best = cap;
        double bestLoss = Double.POSITIVE_INFINITY;
        for (int c = from; c <= to; c++) {
            ParametricServer twin = twinWithCap.apply(c);
            double[] predicted = read(twin, priors(twin), saturate, saturate.targets());
            double loss = 0;
            for (int t = 0; t < predicted.length; t++) {
                double e = Math.log(predicted[t] / saturate.targets().get(t).value());
                loss += Double.isFinite(e) ? e * e : MISSING;
            }
            if (loss < bestLoss || (loss == bestLoss && Math.abs(c - cap) < Math.abs(best - cap))) {
                best = c;
                bestLoss = loss;
            }
        }
        return best;
    }

    private static double servedAtOnce(ParametricServer twin, Observation saturate, double unloadedTtft, int users) {
        double[] atLoad = read(twin, priors(twin), saturate, READ);
        return CalibrationPlan.servedAtOnce(atLoad[1], atLoad[0], users, unloadedTtft);
    }

    private static double[] priors(ParametricServer twin) {
        return twin.parameters().stream().mapToDouble(p -> p.prior()).toArray();
    }

    private static double[] read(ParametricServer twin, double[] values, Observation o, List<Target> targets) {
        List<RequestRecord> records =
                twin.measurer(values, o).measure(o.request()).records();
        return TargetValues.of(records, o.request().openLoop(), targets);
    }
}
