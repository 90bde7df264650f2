package dev.headroom.probe;

import static dev.headroom.probe.VirtualRun.MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import java.time.Duration;
import java.util.stream.LongStream;
import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * The open-loop schedule the driver actually keeps, on a virtual clock: constant and ramped rates to the nanosecond,
 * and Poisson and gamma gaps that pass a Kolmogorov–Smirnov test for a fixed seed; every send leaves at its slot.
 */
class OpenLoopScheduleTest {

    private static MeasurementRequest open(
            ArrivalProcess arrivals, double rate, int requests, Duration ramp, long seed) {
        return Points.of(
                new LoadModel.Open(rate, arrivals),
                Duration.ZERO,
                0,
                null,
                requests,
                Duration.ZERO,
                0,
                ramp,
                Duration.ofSeconds(30),
                seed);
    }

    /** The run's records, after checking that there are {@code n} and that each was sent exactly at its slot. */
    private static VirtualRun sentOnTime(MeasurementRequest point, int n) throws Exception {
        VirtualRun run = VirtualRun.of(point, 5 * MS);
        assertEquals(n, run.records().size());
        assertArrayEquals(run.each(RequestRecord::intendedNanos), run.each(RequestRecord::sentNanos), "sent at slots");
        return run;
    }

    private static double[] intendedGapsSeconds(ArrivalProcess arrivals, double rate) throws Exception {
        long[] intended =
                sentOnTime(open(arrivals, rate, 400, Duration.ZERO, 17), 400).each(RequestRecord::intendedNanos);
        double[] gaps = new double[intended.length - 1];
        for (int i = 1; i < intended.length; i++) gaps[i - 1] = (intended[i] - intended[i - 1]) / 1e9;
        return gaps;
    }

    @Test
    void constantRateSendsAtExactIntervals() throws Exception {
        VirtualRun run = sentOnTime(open(new ArrivalProcess.Constant(), 10, 12, Duration.ZERO, 1), 12);
        assertArrayEquals(
                LongStream.range(0, 12).map(i -> i * 100 * MS).toArray(), run.each(RequestRecord::intendedNanos));
        assertArrayEquals(
                LongStream.range(0, 12).map(i -> i * 100 * MS + 5 * MS).toArray(), run.each(RequestRecord::endNanos));
    }

    /**
     * docs/probe.md: {@code --ramp D} "raises the rate linearly over D (open)". At a slot t &lt; D the rate is
     * R·t/D (R·5 % at least, or the first gap would be endless), so the next slot is 1/(R·max(5 %, t/D)) later; from D
     * on, 1/R. Worked out here in nanoseconds from that definition alone.
     */
    @Test
    void aRampRaisesTheRateLinearlyToItsEnd() throws Exception {
        double rate = 20;
        double rampNanos = 2e9;
        int n = 40;
        // The docs' definition: the send due at s without a ramp leaves at sqrt(2·ramp·s) while s < ramp/2, then at
        // s + ramp/2 — a rate rising linearly to 20/s over 2 s has sent 20·t²/4 by t.
        long[] expected = new long[n];
        for (int i = 0; i < n; i++) {
            double s = i * 1e9 / rate;
            expected[i] = Math.round(s < rampNanos / 2 ? Math.sqrt(2 * rampNanos * s) : s + rampNanos / 2);
        }
        long[] intended = sentOnTime(open(new ArrivalProcess.Constant(), rate, n, Duration.ofSeconds(2), 1), n)
                .each(RequestRecord::intendedNanos);
        assertArrayEquals(expected, intended);
        // The shape: gaps shrinking as the rate rises, then 50 ms from 2 s on.
        int k = 2;
        for (; intended[k] < rampNanos; k++)
            assertTrue(intended[k] - intended[k - 1] < intended[k - 1] - intended[k - 2]);
        for (k++; k < n; k++) assertEquals(50 * MS, intended[k] - intended[k - 1], 1, "gap after the ramp");
    }

    @Test
    void poissonScheduleHasExponentialGaps() throws Exception {
        double[] gaps = intendedGapsSeconds(new ArrivalProcess.Poisson(), 100);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(0.01), gaps);
        assertTrue(p > 0.01, "KS p-value " + p);
    }

    @Test
    void gammaScheduleHasGammaGaps() throws Exception {
        double[] gaps = intendedGapsSeconds(new ArrivalProcess.Gamma(0.5), 100);
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new GammaDistribution(0.5, 0.01 / 0.5), gaps);
        assertTrue(p > 0.01, "KS p-value " + p);
    }
}
