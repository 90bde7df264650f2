package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.headroom.model.RunDiff.Better;
import dev.headroom.model.RunDiff.Verdict;
import org.junit.jupiter.api.Test;

/** A change is beyond noise only when its whole interval lies beyond the noise threshold, on one side. */
class RunDiffVerdictTest {
    @Test
    void aChangeWhoseIntervalExcludesZeroButNotTheThresholdIsWithinNoise() {
        // Latency 0.15 % lower, its interval [-0.29 %, -0.04 %]: beyond the interval, not beyond 1 %.
        assertEquals(Verdict.SAME, RunDiff.verdict(-0.0029, -0.0004, Better.LOWER, 0.01));
        assertEquals(Verdict.BETTER, RunDiff.verdict(-0.0029, -0.0004, Better.LOWER, 0));
    }

    @Test
    void anIntervalWhollyBeyondTheThresholdIsBetterOrWorseByTheMetricsDirection() {
        assertEquals(Verdict.WORSE, RunDiff.verdict(0.15, 0.25, Better.LOWER, 0.01));
        assertEquals(Verdict.BETTER, RunDiff.verdict(0.15, 0.25, Better.HIGHER, 0.01));
        assertEquals(Verdict.WORSE, RunDiff.verdict(-0.25, -0.15, Better.HIGHER, 0.01));
        // Reaching into the band on one end keeps it within noise, as criterion.rs judges.
        assertEquals(Verdict.SAME, RunDiff.verdict(0.005, 0.25, Better.LOWER, 0.01));
        assertEquals(Verdict.SAME, RunDiff.verdict(Double.NaN, 0.25, Better.LOWER, 0.01));
    }
}
