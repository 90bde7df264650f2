package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LengthDistributionTest {

    @Test
    void parsesEveryForm() {
        assertEquals(new LengthDistribution.Fixed(512), LengthDistribution.parse("512"));
        assertEquals(new LengthDistribution.Fixed(7), LengthDistribution.parse("fixed:7"));
        assertEquals(new LengthDistribution.Normal(100, 10), LengthDistribution.parse("normal:100,10"));
        assertEquals(new LengthDistribution.Uniform(5, 9), LengthDistribution.parse("uniform:5,9"));
        assertInstanceOf(LengthDistribution.LogNormal.class, LengthDistribution.parse("LogNormal:256, 200"));
    }

    @Test
    void badTextNamesTheValueAndTheValidForms() {
        var e = assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("gauss:1,2"));
        assertTrue(e.getMessage().contains("gauss:1,2"), e.getMessage());
        assertTrue(e.getMessage().contains("lognormal:MEAN,SD"), e.getMessage());
        var z = assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("0"));
        assertTrue(z.getMessage().contains("0"), z.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LengthDistribution.parse("uniform:9,5"));
    }

    @Test
    void samplesAreAtLeastOneAndMatchTheMean() {
        var rng = new SplittableRandom(1);
        for (LengthDistribution d : new LengthDistribution[] {
            new LengthDistribution.Normal(300, 80),
            new LengthDistribution.Uniform(10, 30),
            new LengthDistribution.LogNormal(256, 200)
        }) {
            double sum = 0;
            int n = 200_000;
            for (int i = 0; i < n; i++) {
                int s = d.sample(rng);
                assertTrue(s >= 1, d + " sampled " + s);
                sum += s;
            }
            assertEquals(d.mean(), sum / n, d.mean() * 0.02, d.toString());
        }
    }

    @Test
    void uniformCoversBothEnds() {
        var rng = new SplittableRandom(3);
        var d = new LengthDistribution.Uniform(5, 7);
        boolean saw5 = false, saw7 = false;
        for (int i = 0; i < 1000; i++) {
            int s = d.sample(rng);
            assertTrue(s >= 5 && s <= 7);
            saw5 |= s == 5;
            saw7 |= s == 7;
        }
        assertTrue(saw5 && saw7);
    }
}
