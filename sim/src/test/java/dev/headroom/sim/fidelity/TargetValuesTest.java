package dev.headroom.sim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metrics;
import dev.headroom.model.RunLength;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.Target;
import dev.headroom.model.fit.TargetValues;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fit's quick reading of a few numbers equals the summary's definition of them. */
class TargetValuesTest {
    @Test
    void targetValuesAgreeWithTheSummary() {
        EngineConfig c = EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"));
        for (boolean open : new boolean[] {false, true}) {
            MeasurementRequest req = new MeasurementRequest(
                    open ? new LoadModel.Open(12, new ArrivalProcess.Poisson()) : new LoadModel.Closed(24),
                    new Workload(
                            new LengthDistribution.Uniform(100, 900), new LengthDistribution.Uniform(20, 300), true),
                    new RunLength(400, Double.POSITIVE_INFINITY, 30, 0),
                    5);
            Measurement m = new VirtualEngine(c).measure(req);
            Summary s = Metrics.summarize(m.records(), open, List.of());
            List<Target> targets = new ArrayList<>();
            for (ObservedMetric metric : ObservedMetric.values()) {
                for (SloStat stat : List.of(SloStat.MEAN, SloStat.P50, SloStat.P99)) {
                    if (metric.isRate() && stat != SloStat.MEAN) continue;
                    targets.add(new Target(metric, stat, 1));
                }
            }
            double[] quick = TargetValues.of(m.records(), open, targets);
            for (int i = 0; i < targets.size(); i++) {
                Target t = targets.get(i);
                double full = t.metric().of(s, t.stat());
                // HdrHistogram keeps 3 significant digits: within 0.2 %.
                assertEquals(full, quick[i], Math.abs(full) * 0.002, t.label() + (open ? " open" : " closed"));
            }
        }
    }
}
