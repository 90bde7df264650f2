package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PavaTest {

    @Test
    void monotoneDataIsLeftAlone() {
        assertArrayEquals(new double[] {1, 2, 3}, Pava.fit(new double[] {1, 2, 3}, new double[] {1, 1, 1}), 1e-12);
    }

    @Test
    void violatorsArePooledToTheirWeightedMean() {
        // 3 and 1 violate: pooled with weights 1 and 3 -> (3 + 3) / 4 = 1.5.
        assertArrayEquals(
                new double[] {0, 1.5, 1.5, 4}, Pava.fit(new double[] {0, 3, 1, 4}, new double[] {1, 1, 3, 1}), 1e-12);
        // A chain: 5, 4, 3 with equal weights pools to 4, then 2 joins: (5 + 4 + 3 + 2) / 4 = 3.5.
        assertArrayEquals(
                new double[] {3.5, 3.5, 3.5, 3.5, 6},
                Pava.fit(new double[] {5, 4, 3, 2, 6}, new double[] {1, 1, 1, 1, 1}),
                1e-12);
    }

    @Test
    void heavyPointsPullThePool() {
        double[] fit = Pava.fit(new double[] {10, 0}, new double[] {1, 9});
        assertEquals(1.0, fit[0], 1e-12);
        assertEquals(1.0, fit[1], 1e-12);
    }

    @Test
    void eachPointCarriesTheWeightOfItsPool() {
        Pava.Fit fit = Pava.fitWithWeights(new double[] {0, 3, 1, 4}, new double[] {1, 1, 3, 1});
        assertArrayEquals(new double[] {0, 1.5, 1.5, 4}, fit.values(), 1e-12);
        assertArrayEquals(new double[] {1, 4, 4, 1}, fit.weights(), 1e-12);
    }

    @Test
    void badWeightsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Pava.fit(new double[] {1}, new double[] {0}));
        assertThrows(IllegalArgumentException.class, () -> Pava.fit(new double[] {1, 2}, new double[] {1}));
    }

    @Test
    void curveInterpolatesLinearlyAndFindsItsRoot() {
        MonotoneCurve c = new MonotoneCurve(new double[] {0, 1, 3}, new double[] {-2, -1, 1});
        assertEquals(-1.5, c.value(0.5), 1e-12);
        assertEquals(2.0, c.root(0, 3), 1e-12, "crosses zero halfway between x=1 (-1) and x=3 (+1)");
        assertEquals(-2, c.value(-5), 1e-12, "flat beyond the ends");
        assertEquals(Double.NaN, c.root(0, 1));
        assertEquals(0.0, new MonotoneCurve(new double[] {0, 1}, new double[] {0.5, 1}).root(0, 1), 1e-12);
    }
}
