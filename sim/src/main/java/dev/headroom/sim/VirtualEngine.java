package dev.headroom.sim;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Seeds;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.BlockHashes;
import dev.headroom.sim.engine.Engine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.Sequence;
import dev.headroom.sim.engine.SequenceListener;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The simulator's engine on a virtual clock: a discrete-event run of one load point with no HTTP and no
 * sleeping. Same {@link Engine} as the HTTP server; only the clock differs. Every result is marked simulated.
 * The same seed draws the same request lengths and arrivals as the HTTP probe ({@link Seeds}). Every request sent
 * finishes: there is no wall clock to cut one off at, so the point's grace is never reached.
 */
public final class VirtualEngine implements Measurer {
    private final EngineConfig config;

    public VirtualEngine(EngineConfig config) {
        this.config = config;
        config.kvBlocks(); // fail fast when the model does not fit
    }

    /** Virtual time has no "as it ends" to speak of: the requests reach {@code sink} when the run is done. */
    @Override
    public Measurement measure(MeasurementRequest request, Consumer<RequestRecord> sink) {
        Measurement m = new Run(request).execute();
        m.records().forEach(sink);
        return m.withRecords(List.of());
    }

    /** Mutable state of one run. */
    private final class Run implements SequenceListener {
        private final MeasurementRequest request;
        private final Engine engine;
        private final Workload workload;
        /** The server's own draws (where a request without ignore_eos stops), apart from the workload's. */
        private final SplittableRandom eos;

        private final PriorityQueue<long[]> arrivals = new PriorityQueue<>(Comparator.comparingLong(a -> a[0]));
        private final List<VirtualRequest> byIndex = new ArrayList<>();
        private final long maxNanos;
        private final long thinkNanos;
        /** How long after it is sent a request reaches the scheduler. */
        private final long overheadNanos;
        /** Measured requests to send; warm-up ones are sent regardless. */
        private long measuredTarget;

        private long measuredIssued;
        private int measuredDone;
        private ArrivalProcess.Gaps gaps;
        private double nextOpenArrivalSeconds;
        private long issued;
        private long now;

        Run(MeasurementRequest request) {
            this.request = request;
            this.engine = new Engine(config.withSeed(request.seed()));
            this.workload = request.workload();
            this.eos = new SplittableRandom(request.seed());
            if (request.maxConcurrency() > 0) {
                throw new BadInputException("the virtual clock does not model {max-concurrency} yet; drop it");
            }
            this.measuredTarget =
                    request.length().requests() > 0 ? request.length().requests() : Long.MAX_VALUE;
            // As the HTTP probe: the time cap counts from the end of a timed warm-up.
            double max = request.length().maxSeconds() + request.length().warmupSeconds();
            this.maxNanos = max >= Long.MAX_VALUE / 1e9 ? Long.MAX_VALUE : (long) (max * 1e9);
            this.thinkNanos = Math.round(request.thinkTimeSeconds() * 1e9);
            this.overheadNanos = config.requestOverheadNanos();
        }

        Measurement execute() {
            switch (request.load()) {
                case LoadModel.Closed c -> {
                    long ramp = Math.round(request.length().rampSeconds() * 1e9);
                    for (int u = 0; u < c.concurrency(); u++) {
                        scheduleArrival(c.concurrency() == 1 ? 0 : ramp * u / c.concurrency());
                    }
                }
                case LoadModel.Open o -> {
                    gaps = o.arrivals().gaps(o.ratePerSecond(), Seeds.arrivals(request.seed()));
                    nextOpenArrival();
                }
            }
            while (true) {
                if (engine.hasWork()) {
                    Engine.Step step = engine.planStep(now);
                    if (step == null) throw new IllegalStateException("engine has work but cannot schedule any");
                    long end = now + step.nanos();
                    admitArrivalsUpTo(end);
                    now = end;
                    engine.finishStep(step, now);
                    admitArrivalsUpTo(now);
                } else if (!arrivals.isEmpty()) {
                    now = Math.max(now, arrivals.peek()[0]);
                    admitArrivalsUpTo(now);
                } else {
                    break;
                }
            }
            List<RequestRecord> records = new ArrayList<>(byIndex.size());
            long last = 0;
            for (VirtualRequest p : byIndex) {
                RequestRecord r = isWarmup(p) ? p.toRecord().asWarmup() : p.toRecord();
                records.add(r);
                last = Math.max(last, r.endNanos());
            }
            return new Measurement(request, records, last, true, request.seed());
        }

        private void scheduleArrival(long at) {
            if (at > maxNanos) return;
            if (!request.length().isWarmup(issued, at / 1e9)) {
                if (measuredIssued >= measuredTarget) return;
                measuredIssued++;
            }
            // Ordered by when the scheduler sees it; a[2] is when it was sent.
            arrivals.add(new long[] {at + overheadNanos, issued++, at});
        }

        private boolean isWarmup(VirtualRequest p) {
            return request.length().isWarmup(p.index, p.arrival / 1e9);
        }

        private void nextOpenArrival() {
            long at = Math.round(nextOpenArrivalSeconds * 1e9);
            nextOpenArrivalSeconds += gaps.nextSeconds();
            scheduleArrival(at);
        }

        /** Arrivals wait in the queue for the next step, as they would on a real server. */
        private void admitArrivalsUpTo(long t) {
            while (!arrivals.isEmpty() && arrivals.peek()[0] <= t) {
                long[] a = arrivals.poll();
                arrive(a[2], a[1], a[0]);
                if (gaps != null) nextOpenArrival();
            }
        }

        /** Request {@code index}, sent at {@code at}, reaches the scheduler at {@code ready}. */
        private void arrive(long at, long index, long ready) {
            SplittableRandom draws = Seeds.request(request.seed(), index);
            int isl = workload.inputTokens().sample(draws);
            // No output length asked for: the server decides, up to the context left.
            int requested = workload.outputTokens() != null
                    ? workload.outputTokens().sample(draws)
                    : Math.max(1, config.model().maxContext() - isl);
            int osl = workload.ignoreEos()
                    ? requested
                    : Math.min(requested, config.eosLength().sample(eos));
            VirtualRequest p = new VirtualRequest(index, at, isl, requested, osl);
            while (byIndex.size() <= index) byIndex.add(null);
            byIndex.set((int) index, p);
            boolean fits = isl + requested <= config.model().maxContext();
            // Every prompt its own: the prefix cache runs (and fills and evicts) as on the HTTP server, with no reuse.
            p.seq = new Sequence(
                    index, isl, osl, ready, this, BlockHashes.unique(request.seed(), index, isl, config.blockSize()));
            if (!fits) {
                p.fail(
                        ready,
                        400,
                        "prompt + max_tokens exceeds max context "
                                + config.model().maxContext());
                onDone(ready);
            } else if (!engine.submit(p.seq)) {
                p.fail(ready, 429, "waiting queue full");
                onDone(ready);
            }
        }

        @Override
        public void onToken(Sequence seq, int index, long nanos) {
            byIndex.get((int) seq.id()).onToken(seq, index, nanos);
        }

        @Override
        public void onFinish(Sequence seq, long nanos) {
            byIndex.get((int) seq.id()).onFinish(seq, nanos);
            if (!isWarmup(byIndex.get((int) seq.id()))
                    && request.stopEarly() != null
                    && ++measuredDone % MeasurementRequest.StopRule.CHECK_EVERY == 0
                    && request.stopEarly().enough(measuredSoFar())) {
                measuredTarget = measuredIssued; // conclusive: send nothing more, let those in flight finish
            }
            onDone(nanos);
        }

        private List<RequestRecord> measuredSoFar() {
            List<RequestRecord> out = new ArrayList<>();
            for (VirtualRequest p : byIndex) {
                if (p != null && !isWarmup(p) && p.end >= 0) out.add(p.toRecord());
            }
            return out;
        }

        /** A closed-loop user sends its next request when its last one ends, after its think time. */
        private void onDone(long at) {
            if (request.load() instanceof LoadModel.Closed) scheduleArrival(at + thinkNanos);
        }
    }
}
