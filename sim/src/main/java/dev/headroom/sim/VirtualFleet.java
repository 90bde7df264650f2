package dev.headroom.sim;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ErrorKind;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.Engine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.Sequence;
import dev.headroom.sim.engine.SequenceListener;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Several replicas of the simulated engine behind a least-loaded balancer (each request goes to the replica with
 * the fewest requests running or waiting), on one virtual clock: Poisson arrivals at a fixed rate for a while.
 * Used to check a capacity plan: does the planned fleet meet the SLO at the forecast's peak?
 */
public final class VirtualFleet {
    private final EngineConfig config;
    private final int replicas;

    public VirtualFleet(EngineConfig config, int replicas) {
        if (replicas < 1) throw new IllegalArgumentException("a fleet needs at least one replica, got " + replicas);
        this.config = config;
        this.replicas = replicas;
        config.kvBlocks(); // fail fast when the model does not fit
    }

    /**
     * Poisson arrivals at {@code rps} for {@code seconds}; requests that arrive in the first {@code warmupSeconds}
     * are marked warm-up. Every request is followed to its end.
     */
    public List<RequestRecord> run(double rps, Workload workload, double seconds, double warmupSeconds, long seed) {
        Engine[] engines = new Engine[replicas];
        Engine.Step[] steps = new Engine.Step[replicas];
        long[] stepEnd = new long[replicas];
        for (int i = 0; i < replicas; i++) {
            engines[i] = new Engine(config.withSeed(seed + 7919L * i));
            stepEnd[i] = Long.MAX_VALUE;
        }
        ArrivalProcess.Gaps gaps = new ArrivalProcess.Poisson().gaps(rps, seed ^ 0x5DEECE66DL);
        SplittableRandom lengths = new SplittableRandom(seed);
        long end = Math.round(seconds * 1e9), warmup = Math.round(warmupSeconds * 1e9);
        List<Request> requests = new ArrayList<>();
        double nextArrival = gaps.nextSeconds();
        while (true) {
            long ta = nextArrival * 1e9 < end ? Math.round(nextArrival * 1e9) : Long.MAX_VALUE;
            int first = 0;
            for (int i = 1; i < replicas; i++) if (stepEnd[i] < stepEnd[first]) first = i;
            long te = stepEnd[first];
            if (ta == Long.MAX_VALUE && te == Long.MAX_VALUE) break;
            if (ta <= te) {
                int target = leastLoaded(engines);
                Request r = new Request(requests.size(), ta, workload.inputTokens().sample(lengths),
                        workload.outputTokens().sample(lengths), ta < warmup);
                requests.add(r);
                r.seq = new Sequence(r.index, r.isl, r.osl, ta, r);
                if (r.isl + r.osl > config.model().maxContext()) {
                    r.fail(ta, 400, "prompt + max_tokens exceeds max context " + config.model().maxContext());
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
        return requests.stream().map(Request::toRecord).toList();
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

    /** One request's progress. */
    private static final class Request implements SequenceListener {
        final long index;
        final long arrival;
        final int isl;
        final int osl;
        final boolean warmup;
        final long[] tokens;
        Sequence seq;
        long end = -1;
        RequestRecord.Failure failure;
        int status;

        Request(long index, long arrival, int isl, int osl, boolean warmup) {
            this.index = index;
            this.arrival = arrival;
            this.isl = isl;
            this.osl = osl;
            this.warmup = warmup;
            this.tokens = new long[osl];
        }

        void fail(long at, int httpStatus, String detail) {
            end = at;
            status = httpStatus;
            failure = new RequestRecord.Failure(ErrorKind.forStatus(httpStatus), detail);
        }

        @Override
        public void onToken(Sequence s, int i, long nanos) {
            tokens[i] = nanos;
        }

        @Override
        public void onFinish(Sequence s, long nanos) {
            end = nanos;
        }

        RequestRecord toRecord() {
            RequestRecord r = failure != null
                    ? RequestRecord.failed(index, arrival, arrival, end, isl, osl, status, failure.kind(), failure.message())
                    : RequestRecord.completed(index, arrival, arrival, tokens, end, isl, TokenSource.SERVER, osl, seq.preemptions());
            return warmup ? r.asWarmup() : r;
        }
    }
}
