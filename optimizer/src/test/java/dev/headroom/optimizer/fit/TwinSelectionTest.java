package dev.headroom.optimizer.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.SloStat;
import dev.headroom.model.TokenSource;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.Parameter;
import dev.headroom.model.fit.ParametricServer;
import dev.headroom.model.fit.Target;
import dev.headroom.model.fit.TargetValues;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a shape is chosen among twins of one server. */
class TwinSelectionTest {
    /**
     * One request at a time: TTFT = (overhead + isl × 0.05 ms) × {@code ttftScale}, every later token 7 ms ×
     * {@code tpotScale}. One term, {@code overhead_ms} in [0, 100] (prior 10); the cases here hold it at its prior.
     */
    private record Server(double ttftScale, double tpotScale) implements ParametricServer {
        @Override
        public List<Parameter> parameters() {
            return List.of(new Parameter("overhead_ms", null, 0, 100, 10, false));
        }

        @Override
        public Measurer measurer(double[] v, Observation o) {
            return (request, sink) -> {
                int isl = request.workload().inputTokens().sample(new java.util.SplittableRandom(1));
                int osl = request.workload().outputTokens().sample(new java.util.SplittableRandom(1));
                double ttftMs = (v[0] + isl * 0.05) * ttftScale;
                List<RequestRecord> out = new ArrayList<>();
                long t = 0;
                for (int i = 0; i < request.length().requests(); i++) {
                    long[] tokens = new long[osl];
                    long first = t + Math.round(ttftMs * 1e6);
                    for (int k = 0; k < osl; k++) tokens[k] = first + Math.round(k * 7 * tpotScale * 1e6);
                    RequestRecord r =
                            RequestRecord.completed(i, t, t, tokens, tokens[osl - 1], isl, TokenSource.SERVER, osl, 0);
                    out.add(r);
                    sink.accept(r);
                    t = tokens[osl - 1];
                }
                return new Measurement(request, out, t, true, request.seed());
            };
        }
    }

    private static final List<Target> TARGETS = List.of(
            new Target(ObservedMetric.TTFT, SloStat.P50, 1),
            new Target(ObservedMetric.TPOT, SloStat.P50, 1),
            new Target(ObservedMetric.TPOT, SloStat.P90, 1));

    /** What {@code truth} measures with terms {@code values} at four prompt lengths. */
    private static List<Observation> observe(Server truth, double[] values) {
        List<Observation> obs = new ArrayList<>();
        for (int isl : new int[] {64, 512, 2048, 8192}) {
            MeasurementRequest req =
                    new MeasurementRequest(new LoadModel.Closed(1), Workload.fixed(isl, 20), RunLength.requests(4), 1);
            Observation blank = new Observation("isl-" + isl, "probe", "g", req, List.of());
            double[] v =
                    TargetValues.of(truth.measurer(values, blank).measure(req).records(), false, TARGETS);
            List<Target> targets = new ArrayList<>();
            for (int t = 0; t < TARGETS.size(); t++) {
                targets.add(new Target(TARGETS.get(t).metric(), TARGETS.get(t).stat(), v[t]));
            }
            obs.add(new Observation(blank.id(), "probe", "g", req, targets));
        }
        return obs;
    }

    @Test
    void aShapeThatMissesOneKindEverywhereLosesToOneCloseOnAllThoughItsMedianErrorIsLower() {
        List<Observation> obs = observe(new Server(1, 1), new double[] {10});
        // TTFT 20 % high at every probe, TPOT exact: two numbers in three exact, a median error of 0.
        Server missesTtft = new Server(1.2, 1);
        // Every number 3 % high.
        Server closeOnAll = new Server(1.03, 1.03);
        TwinFit.Settings held = new TwinFit.Settings(1e6, 1, 60); // a pull that holds every term at its prior
        assertEquals(
                0, FitReport.medianError(new TwinFit(missesTtft, held).fit(obs).fitted()), 1e-3);
        TwinSelection.Choice choice = TwinSelection.best(List.of(missesTtft, closeOnAll), obs, held);
        assertEquals(1, choice.index(), "mean errors " + choice.errors());
        assertEquals(0.067, choice.errors().get(0), 0.002);
        assertEquals(0.03, choice.errors().get(1), 0.002);
    }

    @Test
    void shapesTheProbesCannotTellApartGoToTheOneListedFirst() {
        List<Observation> obs = observe(new Server(1, 1), new double[] {10});
        TwinFit.Settings held = new TwinFit.Settings(1e6, 1, 60);
        // 3.0 % against 2.9 %: within TwinSelection.TIE of each other.
        TwinSelection.Choice tie =
                TwinSelection.best(List.of(new Server(1.03, 1.03), new Server(1.029, 1.029)), obs, held);
        assertEquals(0, tie.index(), "mean errors " + tie.errors());
        // 3.0 % against 2.0 %: the second is better by more than the tie.
        TwinSelection.Choice apart =
                TwinSelection.best(List.of(new Server(1.03, 1.03), new Server(1.02, 1.02)), obs, held);
        assertEquals(1, apart.index(), "mean errors " + apart.errors());
    }
}
