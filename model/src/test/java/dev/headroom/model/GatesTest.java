package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a gate reads what a user writes, and what it refuses before a run. */
class GatesTest {

    @Test
    void aShareIsAPercentageOrAFraction() {
        assertEquals(0.01, Gates.share("1%", "x"), 1e-12);
        assertEquals(0.005, Gates.share(" 0.5 % ", "x"), 1e-12);
        assertEquals(0.01, Gates.share("0.01", "x"), 1e-12);
        assertEquals(0, Gates.share("0", "x"), 0);
        for (String bad : List.of("150%", "5", "-1%", "lots", "")) {
            var e = assertThrows(BadInputException.class, () -> Gates.share(bad, "--max-error-rate"), bad);
            assertTrue(e.getMessage().contains("--max-error-rate '" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void dollarsMayCarryASignCommasAndASuffix() {
        assertEquals(50_000, Gates.dollars("$50,000", "b"), 0);
        assertEquals(50_000, Gates.dollars("50k", "b"), 0);
        assertEquals(1_500_000, Gates.dollars("1.5M", "b"), 0);
        for (String bad : List.of("0", "-5", "free", "1e400")) {
            assertThrows(BadInputException.class, () -> Gates.dollars(bad, "--budget"), bad);
        }
    }

    @Test
    void anSloGateWithoutAnSloIsRefusedForItCouldNeverFail() {
        Gates g = new Gates(true, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        var e = assertThrows(BadInputException.class, () -> g.requireSlo(List.of()));
        assertTrue(e.getMessage().startsWith("fail-on-slo judges the run by its SLO"), e.getMessage());
        g.requireSlo(List.of(Slo.parse("ttft:p95<500ms")));
        Gates.NONE.requireSlo(List.of());
    }

    @Test
    void aSweepGateNamesALoadTheSweepRuns() {
        Gates g = new Gates(false, Double.NaN, 8, Double.NaN, Double.NaN);
        g.requirePointIn(List.of(new LoadModel.Closed(4), new LoadModel.Closed(8)));
        var e = assertThrows(
                BadInputException.class,
                () -> g.requirePointIn(List.of(new LoadModel.Closed(4), new LoadModel.Closed(16))));
        assertTrue(e.getMessage().endsWith("its points are 4, 16"), e.getMessage());
    }
}
