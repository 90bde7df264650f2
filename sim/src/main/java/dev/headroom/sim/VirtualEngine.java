package dev.headroom.sim;

import dev.headroom.model.ArrivalSchedule;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Seeds;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.BlockHashes;
import dev.headroom.sim.engine.Disaggregation;
import dev.headroom.sim.engine.Engine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.FrontEnd;
import dev.headroom.sim.engine.Sequence;
import dev.headroom.sim.engine.SequenceListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The simulator's engine on a virtual clock: a discrete-event run of one load point with no HTTP and no
 * sleeping. Same {@link Engine} as the HTTP server; only the clock differs. Every result is marked simulated.
 * The same seed draws the same request lengths and arrivals as the HTTP probe ({@link Seeds}). Every request sent
 * finishes: there is no wall clock to cut one off at, so the point's grace is never reached.
 *
 * <p>A load of sessions runs here too: each closed-loop user runs one session after another, each open-loop arrival
 * starts one; every turn resends the shared system prompt and the session's history — its earlier messages and the
 * very tokens the engine generated for its answers — with a new message of its own, after the previous answer and the
 * think time, so the prefix cache serves what it still holds of the history, as on the HTTP server. Sub-calls, tool
 * rounds, a context cap and replayed conversations are the HTTP probe's alone.
 *
 * <p>With {@link EngineConfig#disaggregation} the engines are a prefill pool and a decode pool: a request is prefilled
 * (and its first token sampled) on the least-loaded prefill engine, its prompt's KV cache moved over the link, and
 * its answer decoded on the least-loaded decode engine.
 */
public final class VirtualEngine implements Measurer {
    private final EngineConfig config;
    /** Virtual time this server has run, over every run so far: where its {@link EngineConfig#drift} stands. */
    private final AtomicLong age = new AtomicLong();

    public VirtualEngine(EngineConfig config) {
        this.config = config;
        config.kvBlocks(); // fail fast when the model does not fit
    }

    /** Refuses what sessions on the virtual clock do not do: sub-calls, tool rounds, a context cap, a replay. */
    public static void checkSessions(SessionSpec sessions) {
        if (sessions.fanOut() > 0 || sessions.toolCalls() > 0 || sessions.maxContextTokens() > 0) {
            throw new BadInputException("the virtual clock runs plain chat sessions: {fan-out}, {tool-calls} and "
                    + "{max-context} need the HTTP probe (drop --virtual)");
        }
        if (sessions.turnInput() == null || sessions.turnOutput() == null) {
            throw new BadInputException("the virtual clock does not replay recorded conversations: give {turn-isl} "
                    + "and {turn-osl}, or drop --virtual");
        }
    }

    /**
     * Refuses a point whose requests cannot fit the context {@code config} gives one request, as the HTTP probe
     * refuses it against a server that states its context: independent requests whose mean prompt plus answer exceed
     * it, or sessions whose last turn (the system prompt, every message and answer resent) and its answer do.
     */
    public static void checkFits(EngineConfig config, MeasurementRequest point) {
        int context = config.requestContext();
        SessionSpec s = point.sessions();
        if (s != null) {
            if (s.turnInput() == null || s.turnOutput() == null) return;
            long isl = Math.round(s.turnInput().mean()),
                    osl = Math.round(s.turnOutput().mean());
            long last = s.systemPromptTokens() + s.turns() * isl + (s.turns() - 1) * osl;
            if (last + osl > context) {
                throw new BadInputException("turn " + s.turns() + " of each session is about " + last + " prompt "
                        + "tokens (the system prompt, " + s.turns() + " messages and " + (s.turns() - 1)
                        + " answers resent) and asks for " + osl + " more: " + (last + osl) + " > the " + context
                        + " tokens the simulator gives one request; shorten the sessions ({turns}, {turn-isl}, "
                        + "{turn-osl}, {system-prompt-tokens})");
            }
            return;
        }
        if (point.workload().outputTokens() == null) return;
        long isl = Math.round(point.workload().inputTokens().mean());
        long osl = Math.round(point.workload().outputTokens().mean());
        if (isl + osl > context) {
            throw new BadInputException("a request of " + isl + " prompt and " + osl + " answer tokens (the means of "
                    + "{isl} and {osl}) does not fit the " + context + " tokens the simulator gives one request");
        }
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
        /**
         * The replicas ({@link EngineConfig#dataParallel}), or the prefill engines then the decode engines; a request
         * goes to the one of its pool with the fewest in it.
         */
        private final Engine[] engines;
        /** Prefill and decode apart, or null. */
        private final Disaggregation pd;
        /** KV caches on their way to a decode engine: {when it arrives, request index}. */
        private final PriorityQueue<long[]> transfers = new PriorityQueue<>(Comparator.comparingLong(a -> a[0]));
        /** Each replica's step in flight and when it ends (null: idle). */
        private final Engine.Step[] steps;

        private final long[] stepEnds;
        private final Workload workload;
        /** The server's own draws (where a request without ignore_eos stops), apart from the workload's. */
        private final SplittableRandom eos;

        /**
         * Requests not yet at their engine: {when, index, intended, stage, replica, sent}. Stage 2 is due at the
         * client under a concurrency cap (it waits there for a free slot), stage 0 sent and waiting for its replica's
         * front end, stage 1 ready for the engine's scheduler; stage 3 (index −1) is a slot freed at {@code when}.
         */
        private final PriorityQueue<long[]> arrivals = new PriorityQueue<>(Comparator.comparingLong(a -> a[0]));
        /** Each replica's serving process; null when it costs nothing (then requests go straight to stage 1). */
        private final FrontEnd[] frontEnds;
        /** Requests each replica's front end holds and its engine has not seen yet. */
        private final int[] pending;

        private final List<VirtualRequest> byIndex = new ArrayList<>();
        /** The open loop's cap on requests in flight (0: none), its requests in flight, and those waiting for one. */
        private final int maxInFlight;

        private int inFlight;
        private final ArrayDeque<long[]> waitingForSlot = new ArrayDeque<>();
        private final long maxNanos;
        private final long thinkNanos;
        /** How long after it is sent a request reaches the scheduler. */
        private final long overheadNanos;
        /** Measured requests to send; warm-up ones are sent regardless. */
        private long measuredTarget;

        private long measuredIssued;
        private int measuredDone;
        /** The measured requests finished so far, in the order they finished, for the stop rule to judge. */
        private final List<RequestRecord> finishedMeasured = new ArrayList<>();

        private ArrivalSchedule gaps;
        private long issued;
        private long now;
        /** A load of sessions: what each session does, or null. */
        private final SessionSpec sessions;
        /** The run's system prompt, shared by every session. */
        private final int[] system;
        /** The session of each turn sent and not yet admitted, by request index. */
        private final Map<Long, Conversation> turnOf = new HashMap<>();

        private long nextSession;
        /** The closed-loop user of each request by index (-1: an open loop's). */
        private int[] userOf = new int[1024];

        Run(MeasurementRequest request) {
            this.request = request;
            this.pd = config.disaggregation();
            this.engines = new Engine[config.engines()];
            this.steps = new Engine.Step[engines.length];
            this.stepEnds = new long[engines.length];
            // Replica 0 draws as a single engine does; the others their own noise.
            for (int i = 0; i < engines.length; i++)
                engines[i] = new Engine(config.withSeed(request.seed() + 7919L * i), age.get());
            this.workload = request.workload();
            this.eos = new SplittableRandom(request.seed());
            this.maxInFlight = request.maxConcurrency();
            this.measuredTarget =
                    request.length().requests() > 0 ? request.length().requests() : Long.MAX_VALUE;
            // As the HTTP probe: the time cap counts from the end of a timed warm-up.
            double max = request.length().maxSeconds() + request.length().warmupSeconds();
            this.maxNanos = max >= Long.MAX_VALUE / 1e9 ? Long.MAX_VALUE : (long) (max * 1e9);
            this.thinkNanos = Math.round(request.thinkTimeSeconds() * 1e9);
            this.overheadNanos = config.requestOverheadNanos();
            this.pending = new int[engines.length];
            FrontEnd[] fronts = new FrontEnd[engines.length];
            for (int i = 0; i < engines.length; i++) fronts[i] = new FrontEnd(config);
            this.frontEnds = fronts[0].free() ? null : fronts;
            this.sessions = request.sessions();
            if (sessions != null) checkSessions(sessions);
            this.system = sessions == null ? new int[0] : tokens(request.seed(), -1, sessions.systemPromptTokens());
        }

        /** One session on the virtual clock: its turns so far and the tokens it resends. */
        private final class Conversation {
            final long id;
            final int user;
            int turn = -1;
            int[] history;
            int[] prompt;

            Conversation(long id, int user) {
                this.id = id;
                this.user = user;
                this.history = system;
            }

            SessionTurn where() {
                return new SessionTurn(id, turn, 0, 0, sessions.turns());
            }

            /** Answer token {@code i} of the current turn: the same ids in the chain and in the next turn's prompt. */
            int answerToken(int i) {
                return (int)
                        (BlockHashes.mix(BlockHashes.mix(request.seed() ^ id) + turn * 0x100000001L + i) & 0x7fffffff);
            }
        }

        /** {@code n} token ids of their own for a new message (with {@code key} −1, the run's system prompt). */
        private static int[] tokens(long seed, long key, int n) {
            SplittableRandom r = new SplittableRandom(BlockHashes.mix(seed ^ 0x5E5510L) + key);
            int[] t = new int[n];
            for (int i = 0; i < n; i++) t[i] = r.nextInt(Integer.MAX_VALUE);
            return t;
        }

        /** A new session of closed-loop {@code user} (-1: none), its first turn sent at {@code at}. */
        private void startSession(long at, int user) {
            sendTurn(new Conversation(nextSession++, user), at);
        }

        /** The session's next turn, sent at {@code at} (nothing when the run sends no more). */
        private void sendTurn(Conversation c, long at) {
            long index = issued;
            if (scheduleArrival(at, c.user)) {
                c.turn++;
                turnOf.put(index, c);
            }
        }

        /** After a session's request ended at {@code at}: its next turn after the think time, or a new session. */
        private void sessionDone(Conversation c, boolean succeeded, long at) {
            if (succeeded && c.turn + 1 < sessions.turns()) {
                double think = sessions.thinkTime().sampleSeconds(Seeds.think(request.seed(), c.where()));
                sendTurn(c, at + Math.round(think * 1e9));
                return;
            }
            // Done, or given up on a failed turn: a closed-loop user starts another session at once.
            if (request.load() instanceof LoadModel.Closed) startSession(at, c.user);
        }

        Measurement execute() {
            switch (request.load()) {
                case LoadModel.Closed c -> {
                    for (int u = 0; u < c.concurrency(); u++) {
                        long at = request.length().userStartNanos(u, c.concurrency());
                        if (sessions == null) scheduleArrival(at, u);
                        else startSession(at, u);
                    }
                }
                case LoadModel.Open o -> {
                    gaps = new ArrivalSchedule(o, request.length(), Seeds.arrivals(request.seed()));
                    nextOpenArrival();
                }
            }
            while (true) {
                // Every idle replica with work plans its next step now; what arrives during a step waits for the next.
                int next = -1;
                for (int i = 0; i < engines.length; i++) {
                    if (steps[i] == null && engines[i].hasWork()) {
                        steps[i] = engines[i].planStep(now);
                        if (steps[i] == null)
                            throw new IllegalStateException("engine has work but cannot schedule any");
                        stepEnds[i] = now + steps[i].nanos();
                    }
                    if (steps[i] != null && (next < 0 || stepEnds[i] < stepEnds[next])) next = i;
                }
                long arrival = arrivals.isEmpty() ? Long.MAX_VALUE : arrivals.peek()[0];
                long transfer = transfers.isEmpty() ? Long.MAX_VALUE : transfers.peek()[0];
                if (transfer < arrival && (next < 0 || transfer <= stepEnds[next])) {
                    // A KV cache arrives at its decode engine, which takes it as it takes an arrival.
                    long[] t = transfers.poll();
                    now = Math.max(now, t[0]);
                    decode(byIndex.get((int) t[1]), now);
                } else if (next >= 0 && stepEnds[next] < arrival) {
                    now = stepEnds[next];
                    Engine.Step step = steps[next];
                    steps[next] = null;
                    engines[next].finishStep(step, now);
                    admitArrivalsUpTo(now);
                } else if (arrival != Long.MAX_VALUE) {
                    // An arrival first (at a step's very end, before it finishes): to its replica's queue, where an
                    // idle replica starts on it at once and a busy one takes it in its next step.
                    now = Math.max(now, arrival);
                    admitArrivalsUpTo(now);
                } else {
                    break;
                }
            }
            age.addAndGet(now);
            List<RequestRecord> records = new ArrayList<>(byIndex.size());
            long last = 0;
            for (VirtualRequest p : byIndex) {
                RequestRecord r = isWarmup(p) ? p.toRecord().asWarmup() : p.toRecord();
                int user = userOf[(int) p.index];
                if (user >= 0) r = r.byUser(user);
                records.add(r);
                last = Math.max(last, r.endNanos());
            }
            return new Measurement(request, records, last, true, request.seed());
        }

        /** Sends request {@code issued} at {@code at} for closed-loop {@code user}; false when the run is over. */
        private boolean scheduleArrival(long at, int user) {
            if (at > maxNanos) return false;
            if (!request.length().isWarmup(issued, at / 1e9)) {
                if (measuredIssued >= measuredTarget) return false;
                measuredIssued++;
            }
            if (issued == userOf.length) userOf = Arrays.copyOf(userOf, userOf.length * 2);
            userOf[(int) issued] = user;
            // Ordered by when the scheduler sees it (or, with a front end, when it reaches it; under a cap, when it is
            // due); a[2] is when it was meant to be sent.
            if (maxInFlight > 0) arrivals.add(new long[] {at, issued++, at, 2, -1, -1});
            else send(issued++, at, at);
            return true;
        }

        /** Request {@code index}, meant for {@code intended}, leaves the client at {@code sent}. */
        private void send(long index, long intended, long sent) {
            if (frontEnds == null) arrivals.add(new long[] {sent + overheadNanos, index, intended, 1, -1, sent});
            else arrivals.add(new long[] {sent, index, intended, 0, -1, sent});
        }

        private boolean isWarmup(VirtualRequest p) {
            return request.length().isWarmup(p.index, p.arrival / 1e9);
        }

        private void nextOpenArrival() {
            long at = gaps.nextNanos();
            if (at < 0) return; // a replay's arrivals are over
            if (sessions == null) scheduleArrival(at, -1);
            else startSession(at, -1);
        }

        /** Arrivals wait in the queue for the next step, as they would on a real server. */
        private void admitArrivalsUpTo(long t) {
            while (!arrivals.isEmpty() && arrivals.peek()[0] <= t) {
                long[] a = arrivals.poll();
                if (a[3] == 3) {
                    // A slot freed: the longest-waiting request goes now.
                    inFlight--;
                    long[] next = waitingForSlot.poll();
                    if (next != null) {
                        inFlight++;
                        send(next[1], next[2], a[0]);
                    }
                    continue;
                }
                Conversation c = turnOf.get(a[1]);
                // The next open-loop arrival once this one is in: a request, or a session's first turn.
                boolean arrival = gaps != null && (c == null || c.turn == 0);
                if (a[3] == 2) {
                    // Due at the client, which holds it until one of the cap's slots is free.
                    if (inFlight < maxInFlight) {
                        inFlight++;
                        send(a[1], a[2], a[0]);
                    } else {
                        waitingForSlot.add(a);
                    }
                } else if (a[3] == 0) {
                    // At its replica's front end, which takes requests and tokens in the order they come.
                    int replica = leastLoaded(0, entryEngines());
                    pending[replica]++;
                    long in = frontEnds[replica].request(a[5]); // from when it was sent
                    arrivals.add(new long[] {in + overheadNanos, a[1], a[2], 1, replica, a[5]});
                } else {
                    if (a[4] >= 0) pending[(int) a[4]]--;
                    arrive(a[2], a[5], a[1], a[0], (int) a[4]);
                }
                if (arrival && a[3] == (maxInFlight > 0 ? 2 : frontEnds == null ? 1 : 0)) nextOpenArrival();
            }
        }

        /** The engines a request enters by: all, or with P/D the prefill pool's. */
        private int entryEngines() {
            return pd == null ? engines.length : pd.prefill();
        }

        /** Requests engine {@code i} has running or waiting, and those its front end holds for it. */
        private int load(int i) {
            return engines[i].runningCount() + engines[i].waitingCount() + pending[i];
        }

        /**
         * Request {@code index}, meant for {@code at} and sent at {@code sent}, reaches the scheduler at {@code ready}:
         * of {@code replica}, whose front end took it in, or (−1) the least loaded.
         */
        private void arrive(long at, long sent, long index, long ready, int replica) {
            Conversation c = turnOf.remove(index);
            SplittableRandom draws =
                    c == null ? Seeds.request(request.seed(), index) : Seeds.turn(request.seed(), c.where());
            int isl = c == null
                    ? workload.inputTokens().sample(draws)
                    : sessions.turnInput().sample(draws);
            // No output length asked for: the server decides, up to the context left.
            int requested = c != null
                    ? sessions.turnOutput().sample(draws)
                    : workload.outputTokens() != null
                            ? workload.outputTokens().sample(draws)
                            : Math.max(1, config.requestContext() - isl);
            if (c != null) {
                // The history resent, then a new message of the turn's own.
                int[] message = tokens(request.seed(), c.id * 4096 + c.turn, Math.max(1, isl));
                c.prompt = new int[c.history.length + message.length];
                System.arraycopy(c.history, 0, c.prompt, 0, c.history.length);
                System.arraycopy(message, 0, c.prompt, c.history.length, message.length);
                isl = c.prompt.length;
            }
            // A request over the context one request gets: refused, or cut to fit, as the server does.
            int context = config.requestContext();
            int allowed = config.overContext()
                    .allowedOutput(config.overContext().keptPrompt(isl, context), requested, context);
            isl = config.overContext().keptPrompt(isl, context);
            boolean fits = allowed > 0;
            int cap = fits ? allowed : requested;
            int osl = workload.ignoreEos()
                    ? cap
                    : Math.min(cap, config.eosLength().sample(eos));
            VirtualRequest p = new VirtualRequest(index, at, isl, requested, osl);
            p.slotWait = sent - at;
            if (c != null) p.turn = c.where();
            while (byIndex.size() <= index) byIndex.add(null);
            byIndex.set((int) index, p);
            // A session's prompt is keyed block by block, growing with the answer's own tokens; any other prompt is
            // its own: the prefix cache runs (and fills and evicts) as on the HTTP server, with no reuse.
            p.session = c;
            BlockHashes.Chain chain = c != null
                    ? BlockHashes.Chain.of(c.prompt, config.blockSize(), c::answerToken)
                    : BlockHashes.Chain.fixed(BlockHashes.unique(request.seed(), index, isl, config.blockSize()));
            p.chain = chain;
            p.seq = new Sequence(index, isl, osl, ready, this, chain);
            if (replica >= 0) p.frontEnd = frontEnds[replica];
            if (!fits) {
                p.fail(ready, 400, "prompt + max_tokens exceeds the context per request " + context);
                onDone(p, ready);
            } else if (!engines[replica >= 0 ? replica : leastLoaded(0, entryEngines())].submit(prefillStage(p))) {
                p.fail(ready, 429, "waiting queue full");
                onDone(p, ready);
            }
        }

        /** What the first engine runs: the whole request, or with P/D only its prefill and first token. */
        private Sequence prefillStage(VirtualRequest p) {
            if (pd == null || p.tokens.length == 1) return p.seq;
            p.prefill = new Sequence(p.index, p.isl, 1, p.seq.arrivalNanos(), this, p.chain);
            return p.prefill;
        }

        /** Request {@code p}'s KV cache has reached the decode pool at {@code at}: its answer goes on there. */
        private void decode(VirtualRequest p, long at) {
            p.seq = Sequence.transferred(p.index, p.isl, p.tokens.length, at, this);
            if (!engines[leastLoaded(pd.prefill(), engines.length)].submit(p.seq)) {
                p.fail(at, 429, "decode engines' waiting queue full");
                onDone(p, at);
            }
        }

        /** The engine of {@code [from, to)} with the least {@link #load} (the first of equals). */
        private int leastLoaded(int from, int to) {
            int best = from;
            for (int i = from; i < to; i++) if (load(i) < load(best)) best = i;
            return best;
        }

        @Override
        public void onToken(Sequence seq, int index, long nanos) {
            VirtualRequest p = byIndex.get((int) seq.id());
            // The client sees the token once the front end has written it out.
            p.onToken(seq, index, p.frontEnd == null ? nanos : p.frontEnd.token(nanos));
        }

        @Override
        public void onFinish(Sequence seq, long nanos) {
            VirtualRequest p = byIndex.get((int) seq.id());
            if (seq == p.prefill) {
                // Prefilled, first token out: the prompt's KV cache leaves for the decode pool.
                transfers.add(new long[] {nanos + pd.transferNanos(p.isl, config), p.index});
                return;
            }
            // Over when its last token is out of the front end.
            if (p.frontEnd != null && p.tokens.length > 0) nanos = Math.max(nanos, p.tokens[p.tokens.length - 1]);
            p.onFinish(seq, nanos);
            if (!isWarmup(p) && request.stopEarly() != null) finishedMeasured.add(p.toRecord());
            if (!isWarmup(p)
                    && request.stopEarly() != null
                    && ++measuredDone % MeasurementRequest.StopRule.CHECK_EVERY == 0
                    && request.stopEarly().enough(Collections.unmodifiableList(finishedMeasured))) {
                measuredTarget = measuredIssued; // conclusive: send nothing more, let those in flight finish
            }
            onDone(p, nanos);
        }

        /**
         * A closed-loop user sends its next request when its last one ends, after its think time; a session's request
         * leads to its next turn (the answer joins its history) or ends it.
         */
        private void onDone(VirtualRequest p, long at) {
            // Its slot is free once its last token is out (a front end's may be later than now).
            if (maxInFlight > 0) arrivals.add(new long[] {at, -1, at, 3, -1, -1});
            if (p.session instanceof Conversation c) {
                boolean ok = p.succeeded();
                if (ok) {
                    int[] next = new int[c.prompt.length + p.tokens.length];
                    System.arraycopy(c.prompt, 0, next, 0, c.prompt.length);
                    for (int i = 0; i < p.tokens.length; i++) next[c.prompt.length + i] = c.answerToken(i);
                    c.history = next;
                }
                sessionDone(c, ok, at);
            } else if (request.load() instanceof LoadModel.Closed) {
                scheduleArrival(at + thinkNanos, userOf[(int) p.index]);
            }
        }
    }
}
