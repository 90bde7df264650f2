package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

class ArrivalProcessTest {

    private static double[] draw(ArrivalProcess p, double rate, long seed, int n) {
        var gaps = p.gaps(rate, seed);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) out[i] = gaps.nextSeconds();
        return out;
    }

    @Test
    void poissonGapsPassKolmogorovSmirnovAgainstExponential() {
        double rate = 8;
        double[] gaps = draw(new ArrivalProcess.Poisson(), rate, 11, 5000);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(1 / rate), gaps);
        assertTrue(p > 0.01, "KS p-value " + p);
    }

    @Test
    void poissonGapsFailKolmogorovSmirnovAgainstTheWrongRate() {
        // The test above can fail: a gap stream at rate 8 is rejected against rate 10.
        double[] gaps = draw(new ArrivalProcess.Poisson(), 8, 11, 5000);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(1 / 10.0), gaps);
        assertTrue(p < 1e-6, "KS p-value " + p);
    }

    @Test
    void gammaGapsHaveTheRequestedMeanAndBurstiness() {
        double rate = 4, shape = 0.5;
        double[] gaps = draw(new ArrivalProcess.Gamma(shape), rate, 5, 20000);
        double p =
                new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new GammaDistribution(shape, 1 / rate / shape), gaps);
        assertTrue(p > 0.01, "KS p-value " + p);
        var stats = new SummaryStatistics();
        for (double g : gaps) stats.addValue(g);
        assertEquals(1 / rate, stats.getMean(), 0.02 / rate * 5);
        double cv = stats.getStandardDeviation() / stats.getMean();
        assertEquals(1 / Math.sqrt(shape), cv, 0.05); // burstier than Poisson (cv 1)
    }

    @Test
    void constantGapsAreExact() {
        for (double g : draw(new ArrivalProcess.Constant(), 5, 0, 10)) assertEquals(0.2, g, 1e-12);
    }

    @Test
    void sameSeedSameGaps() {
        assertArrayEquals(
                draw(new ArrivalProcess.Poisson(), 3, 99, 100), draw(new ArrivalProcess.Poisson(), 3, 99, 100));
    }

    @Test
    void parsesAndRejectsWithTheValidValues() {
        assertEquals(new ArrivalProcess.Gamma(0.25), ArrivalProcess.parse("gamma:0.25"));
        assertEquals(new ArrivalProcess.Poisson(), ArrivalProcess.parse("Poisson"));
        var e = assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.parse("bursty"));
        assertTrue(e.getMessage().contains("bursty") && e.getMessage().contains("gamma:SHAPE"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.parse("gamma:-1"));
        assertThrows(IllegalArgumentException.class, () -> new ArrivalProcess.Poisson().gaps(0, 1));
    }
}
