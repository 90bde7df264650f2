package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EffectiveSizeTest {
    @Test
    void independentValuesCountFully() {
        SplittableRandom r = new SplittableRandom(1);
        double[] x = new double[1000];
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian();
        double n = EffectiveSize.of(x);
        assertTrue(n > 800 && n <= 1000, "about n for white noise, got " + n);
    }

    @Test
    void runsOfEqualNeighboursCountAsOneEach() {
        // 100 independent values, each repeated 10 times: about 100 effective samples, not 1,000.
        SplittableRandom r = new SplittableRandom(2);
        double[] x = new double[1000];
        for (int i = 0; i < x.length; i += 10) {
            double v = r.nextGaussian();
            for (int j = 0; j < 10; j++) x[i + j] = v;
        }
        double n = EffectiveSize.of(x);
        assertTrue(n > 60 && n < 160, "about 100, got " + n);
    }

    @Test
    void anAr1SequenceHasTheTextbookSize() {
        // AR(1) with φ = 0.8: τ = (1 + φ) ÷ (1 − φ) = 9, so n_eff ≈ n ÷ 9 — directly (averaged over 20 sequences, each
        // estimate being noisy) and through the block-mean path.
        SplittableRandom r = new SplittableRandom(3);
        double sum = 0;
        for (int k = 0; k < 20; k++) sum += EffectiveSize.of(ar1(1800, r));
        assertEquals(200, sum / 20, 40);
        assertEquals(10_000, EffectiveSize.of(ar1(90_000, r)), 3_000);
    }

    private static double[] ar1(int n, SplittableRandom r) {
        double[] x = new double[n];
        for (int i = 1; i < n; i++) x[i] = 0.8 * x[i - 1] + r.nextGaussian();
        return x;
    }

    @Test
    void constantAndTinySequencesAreTheirLength() {
        assertEquals(50, EffectiveSize.of(new double[50]));
        assertEquals(3, EffectiveSize.of(new double[] {1, 2, 3}));
    }
}
