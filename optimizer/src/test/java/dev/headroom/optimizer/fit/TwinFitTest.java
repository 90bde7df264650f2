package dev.headroom.optimizer.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.SloStat;
import dev.headroom.model.TokenSource;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.Parameter;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.model.fit.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TwinFitTest {
    /**
     * A toy server: one request at a time, TTFT = overhead + isl × prefill, every later token a fixed gap; the gap is
     * each group's own ({@code gap.a}, {@code gap.b}), the other two are shared.
     */
    private static final class Toy implements ParametricServer {
        final List<Parameter> params = List.of(
                new Parameter("overhead_ms", null, 0, 100, 10, false),
                new Parameter("prefill_us", null, 1, 1000, 50, true),
                new Parameter("gap_ms", "a", 1, 100, 10, true),
                new Parameter("gap_ms", "b", 1, 100, 10, true));

        @Override
        public List<Parameter> parameters() {
            return params;
        }

        @Override
        public Measurer measurer(double[] v, Observation o) {
            double gap = o.group().equals("a") ? v[2] : v[3];
            return (request, sink) -> {
                int isl = request.workload().inputTokens().sample(new java.util.SplittableRandom(1));
                int osl = request.workload().outputTokens().sample(new java.util.SplittableRandom(1));
                List<RequestRecord> out = new ArrayList<>();
                long t = 0;
                for (int i = 0; i < request.length().requests(); i++) {
                    long[] tokens = new long[osl];
                    long first = t + Math.round((v[0] + isl * v[1] / 1e3) * 1e6);
                    for (int k = 0; k < osl; k++) tokens[k] = first + Math.round(k * gap * 1e6);
                    long end = tokens[osl - 1];
                    RequestRecord r = RequestRecord.completed(i, t, t, tokens, end, isl, TokenSource.SERVER, osl, 0);
                    out.add(r);
                    sink.accept(r);
                    t = end;
                }
                return new Measurement(request, out, t, true, request.seed());
            };
        }
    }

    private static Observation observe(Toy toy, double[] truth, String id, String source, String group, int isl) {
        MeasurementRequest req =
                new MeasurementRequest(new LoadModel.Closed(1), Workload.fixed(isl, 20), RunLength.requests(5), 1);
        Observation blank = new Observation(id, source, group, req, List.of());
        var records = toy.measurer(truth, blank).measure(req).records();
        List<Target> targets = List.of(
                new Target(ObservedMetric.TTFT, SloStat.P50, 1), new Target(ObservedMetric.TPOT, SloStat.P50, 1));
        double[] v = dev.headroom.model.fit.TargetValues.of(records, false, targets);
        return new Observation(
                id,
                source,
                group,
                req,
                List.of(
                        new Target(ObservedMetric.TTFT, SloStat.P50, v[0]),
                        new Target(ObservedMetric.TPOT, SloStat.P50, v[1])));
    }

    /** Four lengths in each of groups a and b (gaps 7 and 31 ms), each group's points from two sources of its own. */
    private static List<Observation> twoGroupsFourSources(Toy toy) {
        double[] truth = {23, 140, 7, 31};
        List<Observation> obs = new ArrayList<>();
        int[] lengths = {64, 256, 1024, 4096};
        for (int i = 0; i < lengths.length; i++) {
            obs.add(observe(toy, truth, "a" + i, "src" + (i % 2), "a", lengths[i]));
            obs.add(observe(toy, truth, "b" + i, "src" + (2 + i % 2), "b", lengths[i]));
        }
        return obs;
    }

    @Test
    void fitRecoversHiddenParametersAndCrossValidationPredictsLeftOutSources() {
        Toy toy = new Toy();
        List<Observation> obs = twoGroupsFourSources(toy);
        FitReport r = new TwinFit(toy, new TwinFit.Settings(0.0, 3, 200)).crossValidated(obs, 2);
        assertEquals(23, r.value("overhead_ms", null), 0.5);
        assertEquals(140, r.value("prefill_us", null), 2);
        assertEquals(7, r.value("gap_ms", "a"), 0.1);
        assertEquals(31, r.value("gap_ms", "b"), 0.3);
        assertTrue(FitReport.medianError(r.fitted()) < 0.01, "in-sample " + FitReport.medianError(r.fitted()));
        // Every source was held out once, and its numbers predicted from the others'.
        assertEquals(r.fitted().size(), r.heldOut().size());
        assertTrue(r.heldOut().stream().allMatch(c -> c.heldOut()));
        assertTrue(FitReport.medianError(r.heldOut()) < 0.05, "held out " + FitReport.medianError(r.heldOut()));
    }

    @Test
    void aParameterTheDataDoesNotTouchKeepsItsPrior() {
        Toy toy = new Toy();
        double[] truth = {23, 140, 7, 31};
        List<Observation> onlyA =
                List.of(observe(toy, truth, "a0", "s", "a", 100), observe(toy, truth, "a1", "s", "a", 2000));
        FitReport r = new TwinFit(toy, new TwinFit.Settings(0.02, 2, 150)).fit(onlyA);
        assertEquals(10, r.value("gap_ms", "b"), 1e-9, "group b has no observation here");
        assertEquals(7, r.value("gap_ms", "a"), 0.3);
    }

    @Test
    void foldsSplitSourcesIntoBalancedGroups() {
        List<Observation> obs = new ArrayList<>();
        MeasurementRequest req =
                new MeasurementRequest(new LoadModel.Closed(1), Workload.fixed(8, 8), RunLength.requests(1), 1);
        int[] sizes = {10, 6, 4, 3, 1};
        for (int s = 0; s < sizes.length; s++) {
            for (int i = 0; i < sizes[s]; i++)
                obs.add(new Observation("o" + s + "-" + i, "s" + s, "g", req, List.of()));
        }
        List<List<String>> folds = TwinFit.folds(obs, 2);
        // Largest first, each to the lighter fold (a tie to the first): 10+3 and 6+4+1 observations.
        assertEquals(List.of(List.of("s0", "s3"), List.of("s1", "s2", "s4")), folds);
        // By another unit (the group, a GPU): its values are the folds; as many folds as units leaves one out each.
        assertEquals(List.of(List.of("g")), TwinFit.folds(obs, 2, Observation::group));
        List<List<String>> one = TwinFit.folds(obs, 99, Observation::source);
        assertEquals(5, one.size());
        assertTrue(one.stream().allMatch(fold -> fold.size() == 1));
    }

    @Test
    void aGpuHeldOutIsPredictedByAFitThatSawNoneOfItsPoints() {
        Toy toy = new Toy();
        List<Observation> obs = twoGroupsFourSources(toy);
        TwinFit fit = new TwinFit(toy, new TwinFit.Settings(0.0, 3, 200));
        // By source, each of b's sources is predicted from b's other source: its gap is known.
        List<Comparison> bySource = fit.heldOut(obs, 4, Observation::source);
        // By group, nothing of b was seen: its gap stays at the prior of 10 ms where the truth is 31.
        List<Comparison> byGroup = fit.heldOut(obs, 2, Observation::group);
        assertEquals(obs.size() * 2, byGroup.size());
        double sourceTpot = tpotError(bySource, "b");
        double groupTpot = tpotError(byGroup, "b");
        assertTrue(sourceTpot < 0.05, "b held out by source: " + sourceTpot);
        assertEquals(10.0 / 31 - 1, groupTpot, 0.05, "b held out by group predicts its gap from the prior");
    }

    private static double tpotError(List<Comparison> cs, String group) {
        return cs.stream()
                .filter(c -> c.observation().group().equals(group) && c.target().metric() == ObservedMetric.TPOT)
                .mapToDouble(Comparison::signedError)
                .average()
                .orElseThrow();
    }
}
