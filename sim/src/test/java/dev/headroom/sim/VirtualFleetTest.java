package dev.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.Metric;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualFleetTest {
    private static final EngineConfig H100 =
            EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"));
    private static final Workload CHAT = Workload.fixed(512, 128);

    private static Summary run(int replicas, double rps) {
        List<RequestRecord> r = new VirtualFleet(H100, replicas).run(rps, CHAT, 120, 20, 3);
        return Metrics.summarize(r, true, List.of(Slo.parse("ttft:p95<300ms")));
    }

    @Test
    void twoReplicasCarryTwiceTheLoadOfOneAtTheSameLatency() {
        Summary one = run(1, 20), two = run(2, 40);
        assertEquals(
                one.distribution(Metric.TTFT_MS).p50(),
                two.distribution(Metric.TTFT_MS).p50(),
                0.3 * one.distribution(Metric.TTFT_MS).p50());
        assertEquals(2 * one.requestsPerS(), two.requestsPerS(), 0.1 * two.requestsPerS());
    }

    @Test
    void aFleetTooSmallForTheRateQueuesAndMissesTheSlo() {
        Summary enough = run(4, 100), tooFew = run(1, 100);
        assertTrue(
                enough.sloPass(),
                "4 replicas at 100 rps: ttft p95 "
                        + enough.distribution(Metric.TTFT_MS).p95());
        assertTrue(
                !tooFew.sloPass() && tooFew.sloAttainment() < 0.5,
                "1 replica at 100 rps: attainment " + tooFew.sloAttainment());
    }

    @Test
    void theBalancerSpreadsRequestsAndWarmupIsMarked() {
        List<RequestRecord> r = new VirtualFleet(H100, 3).run(30, CHAT, 60, 10, 5);
        assertTrue(r.stream().allMatch(RequestRecord::succeeded));
        assertTrue(r.stream().anyMatch(RequestRecord::warmup) && r.stream().anyMatch(x -> !x.warmup()));
        assertTrue(r.stream().filter(RequestRecord::warmup).allMatch(x -> x.intendedNanos() < 10_000_000_000L));
        // Same seed, same records.
        List<RequestRecord> again = new VirtualFleet(H100, 3).run(30, CHAT, 60, 10, 5);
        assertEquals(r.get(r.size() / 2).endNanos(), again.get(r.size() / 2).endNanos());
    }

    @Test
    void withoutIgnoreEosAnswersStopWhereTheEnginesLengthDistributionSays() {
        EngineConfig eos =
                H100.toBuilder().eosLength(new LengthDistribution.Fixed(40)).build();
        Workload free = new Workload(new LengthDistribution.Fixed(512), new LengthDistribution.Fixed(128), false);
        List<RequestRecord> r = new VirtualFleet(eos, 2).run(10, free, 30, 5, 7);
        assertTrue(r.stream().allMatch(RequestRecord::succeeded));
        assertTrue(r.stream().allMatch(x -> x.completionTokens() == 40 && x.requestedOutputTokens() == 128));
        List<RequestRecord> forced = new VirtualFleet(eos, 2).run(10, CHAT, 30, 5, 7);
        assertTrue(forced.stream().allMatch(x -> x.completionTokens() == 128), "ignore_eos: every answer as asked");
    }

    @Test
    void gammaArrivalsAreBurstierThanPoissonAtTheSameRate() {
        double poisson = gapCv(new ArrivalProcess.Poisson()), bursty = gapCv(new ArrivalProcess.Gamma(0.25));
        assertEquals(1.0, poisson, 0.15);
        assertEquals(2.0, bursty, 0.4); // a gamma of shape k has gaps of cv 1/sqrt(k)
    }

    /** The coefficient of variation of the send gaps of a fleet run. */
    private static double gapCv(ArrivalProcess arrivals) {
        List<RequestRecord> r = new VirtualFleet(H100, 2).run(arrivals, 20, CHAT, 200, 0, 11);
        double[] gaps = new double[r.size() - 1];
        for (int i = 1; i < r.size(); i++)
            gaps[i - 1] = (r.get(i).intendedNanos() - r.get(i - 1).intendedNanos()) / 1e9;
        double mean = Arrays.stream(gaps).average().orElseThrow();
        double var = Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / (gaps.length - 1);
        return Math.sqrt(var) / mean;
    }
}
