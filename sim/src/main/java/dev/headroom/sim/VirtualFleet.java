package dev.headroom.sim;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Seeds;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.Engine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.Sequence;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Several replicas of the simulated engine behind a least-loaded balancer (each request goes to the replica with
 * the fewest requests running or waiting), on one virtual clock: open-loop arrivals at a fixed rate for a while, each
 * answer as long as it asks, or, without ignore_eos, where the engine's output-length distribution stops it.
 * Used to check a capacity plan: does the planned fleet meet the SLO at the forecast's peak?
 */
public final class VirtualFleet {
    private final EngineConfig config;
    private final int replicas;

    public VirtualFleet(EngineConfig config, int replicas) {
        if (config.disaggregation() != null) {
            throw new BadInputException("{verify} runs replicas of one engine; a P/D replica ("
                    + config.disaggregation().text() + ") is measured with probe or search --virtual --sim-pd");
        }
        if (replicas < 1) throw new BadInputException("a fleet needs at least one replica, got " + replicas);
        this.config = config;
        this.replicas = replicas;
        config.kvBlocks(); // fail fast when the model does not fit
    }

    /** Poisson arrivals; see {@link #run(ArrivalProcess, double, Workload, double, double, long)}. */
    public List<RequestRecord> run(double rps, Workload workload, double seconds, double warmupSeconds, long seed) {
        return run(new ArrivalProcess.Poisson(), rps, workload, seconds, warmupSeconds, seed);
    }

    /**
     * {@code arrivals} at {@code rps} for {@code seconds}; requests that arrive in the first {@code warmupSeconds}
     * are marked warm-up. Every request is followed to its end.
     */
    public List<RequestRecord> run(
            ArrivalProcess arrivals, double rps, Workload workload, double seconds, double warmupSeconds, long seed) {
        Engine[] engines = new Engine[replicas];
        Engine.Step[] steps = new Engine.Step[replicas];
        long[] stepEnd = new long[replicas];
        for (int i = 0; i < replicas; i++) {
            engines[i] = new Engine(config.withSeed(seed + 7919L * i));
            stepEnd[i] = Long.MAX_VALUE;
        }
        ArrivalProcess.Gaps gaps = arrivals.gaps(rps, Seeds.arrivals(seed));
        SplittableRandom eos = new SplittableRandom(seed); // the servers' own draws, apart from the workload's
        long end = Math.round(seconds * 1e9), warmup = Math.round(warmupSeconds * 1e9);
        List<VirtualRequest> requests = new ArrayList<>();
        List<Boolean> warm = new ArrayList<>();
        double nextArrival = gaps.nextSeconds();
        long overhead = config.requestOverheadNanos();
        while (true) {
            // ta: when the next request reaches a scheduler, its overhead after it was sent.
            long ta = nextArrival * 1e9 < end ? Math.round(nextArrival * 1e9) + overhead : Long.MAX_VALUE;
            int first = 0;
            for (int i = 1; i < replicas; i++) if (stepEnd[i] < stepEnd[first]) first = i;
            long te = stepEnd[first];
            if (ta == Long.MAX_VALUE && te == Long.MAX_VALUE) break;
            if (ta <= te) {
                int target = leastLoaded(engines);
                SplittableRandom draws = Seeds.request(seed, requests.size());
                int isl = workload.inputTokens().sample(draws);
                int requested = workload.outputTokens().sample(draws);
                int osl = workload.ignoreEos()
                        ? requested
                        : Math.min(requested, config.eosLength().sample(eos));
                VirtualRequest r = new VirtualRequest(requests.size(), ta - overhead, isl, requested, osl);
                requests.add(r);
                warm.add(ta - overhead < warmup);
                r.seq = new Sequence(r.index, isl, osl, ta, r);
                if (r.isl + r.requested > config.model().maxContext()) {
                    r.fail(
                            ta,
                            400,
                            "prompt + max_tokens exceeds max context "
                                    + config.model().maxContext());
                } else if (!engines[target].submit(r.seq)) {
                    r.fail(ta, 429, "waiting queue full");
                } else if (steps[target] == null) {
                    steps[target] = engines[target].planStep(ta);
                    stepEnd[target] = ta + steps[target].nanos();
                }
                nextArrival += gaps.nextSeconds();
            } else {
                engines[first].finishStep(steps[first], te);
                if (engines[first].hasWork()) {
                    steps[first] = engines[first].planStep(te);
                    stepEnd[first] = te + steps[first].nanos();
                } else {
                    steps[first] = null;
                    stepEnd[first] = Long.MAX_VALUE;
                }
            }
        }
        List<RequestRecord> out = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            RequestRecord rec = requests.get(i).toRecord();
            out.add(warm.get(i) ? rec.asWarmup() : rec);
        }
        return out;
    }

    private static int leastLoaded(Engine[] engines) {
        int best = 0;
        for (int i = 1; i < engines.length; i++) {
            if (load(engines[i]) < load(engines[best])) best = i;
        }
        return best;
    }

    private static int load(Engine e) {
        return e.runningCount() + e.waitingCount();
    }
}
