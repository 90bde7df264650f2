package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.RequestRecord;
import dev.headroom.sim.http.SimServer;
import java.time.Duration;
import java.util.List;
import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/** The open-loop schedule the driver actually used passes a Kolmogorov–Smirnov test for a fixed seed. */
class OpenLoopScheduleTest {

    private static double[] intendedGapsSeconds(ArrivalProcess arrivals, double rate) {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            var plan = Points.of(
                    new LoadModel.Open(rate, arrivals),
                    Duration.ZERO,
                    0,
                    null,
                    400,
                    Duration.ZERO,
                    0,
                    Duration.ZERO,
                    Duration.ofSeconds(30),
                    17);
            List<RequestRecord> rs = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(16, 2), plan, r -> {})
                    .records();
            assertEquals(400, rs.size());
            double[] gaps = new double[rs.size() - 1];
            for (int i = 1; i < rs.size(); i++)
                gaps[i - 1] = (rs.get(i).intendedNanos() - rs.get(i - 1).intendedNanos()) / 1e9;
            return gaps;
        }
    }

    @Test
    void poissonScheduleHasExponentialGaps() {
        double[] gaps = intendedGapsSeconds(new ArrivalProcess.Poisson(), 100);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(0.01), gaps);
        assertTrue(p > 0.01, "KS p-value " + p);
    }

    @Test
    void gammaScheduleHasGammaGaps() {
        double[] gaps = intendedGapsSeconds(new ArrivalProcess.Gamma(0.5), 100);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new GammaDistribution(0.5, 0.01 / 0.5), gaps);
        assertTrue(p > 0.01, "KS p-value " + p);
    }
}
