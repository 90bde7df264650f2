package dev.headroom.probe;

import dev.headroom.model.ArrivalSchedule;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Seeds;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.Share;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Drives one load point. Closed loop: N virtual users, each sending its next request when its last one ends
 * (plus think time), so never more than N in flight. Open loop: send times are laid on an absolute schedule
 * from the arrival process before anything is sent, and each request leaves at its slot whatever the server
 * does; its latencies are measured from that slot. With sessions, each closed-loop user runs one multi-turn session
 * after another, and each open-loop arrival starts a session ({@link SessionPrompts}): every turn waits for the last
 * answer and the think time, its sub-calls go out in parallel, and a run that stops mid-session abandons it. A driver
 * given a {@link Share} of the point runs only that worker's users or arrivals, numbered as the share says.
 */
final class LoadDriver {
    /**
     * Open-loop senders, platform threads waiting for work. Few: each is busy only until its response's headers, and
     * thousands of platform threads contending for OkHttp's connection pool made sends later, not earlier (at 2,000
     * requests/s a pool that grew to 2,400 threads put the send lag's median at 1.4 s).
     */
    private static final int SENDERS = 4;

    /** How far ahead of its slot an open-loop request is prepared. */
    private static final long LOOKAHEAD_NANOS = 20_000_000;
    /** How often a preparer waiting for a distant arrival looks whether the run has ended. */
    private static final long STOP_CHECK_NANOS = 100_000_000;

    private final RequestSender sender;
    private final RequestSource prompts;
    /** The run's conversations, or null for independent requests. */
    private final SessionPrompts sessions;

    private final AtomicLong nextSession = new AtomicLong();
    private final MeasurementRequest point;
    private final Share share;
    /** Measured requests this driver may send when the point counts them (its share of the count). */
    private final int quota;
    /** Open loop: arrivals of the global schedule seen so far, and the measured ones among them. */
    private long arrivals;

    private long measuredArrivals;
    private final RunClock clock;
    private final Consumer<RequestRecord> sink;
    /** The records kept: all of them when asked, else the measured ones only while a stop rule needs them. */
    private final ConcurrentLinkedQueue<RequestRecord> records = new ConcurrentLinkedQueue<>();

    private final boolean keep;
    private final AtomicLong finished = new AtomicLong();
    private final AtomicLong nextIndex = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicLong measuredIssued = new AtomicLong();
    private final long warmupEnd;
    private volatile long stopAt = Long.MAX_VALUE;
    /** Sessions: a request was refused a claim, so the run is over and no session starts. */
    private volatile boolean over;

    private final AtomicLong measuredDone = new AtomicLong();
    private final FailFast failFast = new FailFast();
    private volatile String refusal;
    private final AtomicReference<Error> fatal = new AtomicReference<>();
    private final Runnable onMeasuring;
    private volatile RuntimeException preparerFailure;
    private boolean measuring;

    LoadDriver(
            RequestSender sender,
            RequestSource prompts,
            SessionPrompts sessions,
            MeasurementRequest point,
            RunClock clock,
            Consumer<RequestRecord> sink,
            Runnable onMeasuring,
            boolean keep) {
        this(sender, prompts, sessions, point, Share.ALL, clock, sink, onMeasuring, keep);
    }

    /** A driver of {@code share} of {@code point}. */
    LoadDriver(
            RequestSender sender,
            RequestSource prompts,
            SessionPrompts sessions,
            MeasurementRequest point,
            Share share,
            RunClock clock,
            Consumer<RequestRecord> sink,
            Runnable onMeasuring,
            boolean keep) {
        this.share = share;
        this.quota = share.of(point.length().requests());
        this.onMeasuring = onMeasuring;
        this.keep = keep;
        this.sender = sender;
        this.prompts = prompts;
        this.sessions = sessions;
        this.point = point;
        this.clock = clock;
        this.sink = sink;
        this.warmupEnd = seconds(point.length().warmupSeconds());
        if (point.length().timed()) stopAt = warmupEnd + seconds(point.length().maxSeconds());
    }

    private static long seconds(double s) {
        return Math.round(s * 1e9);
    }

    /** Why the run stopped early because the target refused every request ({@link FailFast}), or null. */
    String refusal() {
        return refusal;
    }

    /**
     * The error (out of memory, typically) that stopped the run in one of its threads, or null. The run stops at
     * the first: a user that died would otherwise leave the others measuring a load nobody asked for.
     */
    Error fatal() {
        return fatal.get();
    }

    private void failed(Error e) {
        fatal.compareAndSet(null, e);
        stopAt = Math.min(stopAt, clock.now());
        sender.cutOff();
    }

    /** Ends the run now, as a stop rule would: no new requests are sent, those in flight finish within the grace. */
    void stop() {
        stopAt = Math.min(stopAt, clock.now());
    }

    /** Most requests that were in flight at once. */
    int peakInFlight() {
        return peakInFlight.get();
    }

    /** Requests finished so far, warm-up included. */
    long finished() {
        return finished.get();
    }

    /**
     * Runs until the stop condition and the grace period; returns every record in index order when asked to keep
     * them, else none (the sink had each as it ended).
     */
    List<RequestRecord> run() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        switch (point.load()) {
            case LoadModel.Closed c -> {
                for (int u = 0; u < c.concurrency(); u++) {
                    if (!share.owns(u)) continue;
                    long start = point.length().userStartNanos(u, c.concurrency());
                    int user = u;
                    threads.add(clock.start(
                            Thread.ofVirtual().name("user-" + u),
                            sessions == null ? () -> user(user, start) : () -> sessionUser(user, start)));
                }
                for (Thread t : threads) joinUntilGrace(t);
            }
            case LoadModel.Open o -> {
                if (sessions == null) openLoop(o);
                else openSessions(o);
            }
        }
        sender.cutOff();
        awaitQuiet();
        if (!keep) return List.of();
        List<RequestRecord> all = new ArrayList<>(records);
        all.sort(Comparator.comparingLong(RequestRecord::index));
        return all;
    }

    /**
     * The next request's index, or -1 when the run is over (time is up, or enough measured requests were sent); the
     * first measured one runs {@code onMeasuring}, so the client's own health is judged without the warm-up.
     */
    private synchronized long claim(long now) {
        if (now >= stopAt) return -1;
        long i = share.nth(nextIndex.get());
        boolean warmup = isWarmup(i, now);
        if (!warmup && point.length().requests() > 0 && measuredIssued.incrementAndGet() > quota) {
            stopAt = now;
            return -1;
        }
        measuring(warmup);
        nextIndex.getAndIncrement();
        return i;
    }

    private void measuring(boolean warmup) {
        if (!warmup && !measuring) {
            measuring = true;
            onMeasuring.run();
        }
    }

    /** The number the next arrival of the global schedule will have. */
    private synchronized long nextArrival() {
        return arrivals;
    }

    /**
     * The open loop's next arrival on the global schedule, meant for {@code intended}: its number (the request's
     * index), or -1 when the run is over. Every worker walks every arrival, so a count of measured requests ends
     * the global schedule at the same arrival whatever the share; the caller sends only the share's own.
     */
    private synchronized long claimArrival(long intended) {
        if (intended >= stopAt) return -1;
        long a = arrivals;
        boolean warmup = isWarmup(a, intended);
        if (!warmup
                && point.length().requests() > 0
                && ++measuredArrivals > point.length().requests()) {
            stopAt = intended;
            return -1;
        }
        measuring(warmup);
        arrivals++;
        return a;
    }

    private boolean isWarmup(long index, long intended) {
        return point.length().isWarmup(index, intended / 1e9);
    }

    /** Closed-loop user {@code u}: its next request when its last one ends, after the think time. */
    private void user(int u, long startAt) {
        try {
            clock.sleepUntil(startAt);
            while (true) {
                // Build the request first: client work must not count as the server's time, nor as send lag.
                long claimed = clock.now();
                long i = claim(claimed);
                if (i < 0) return;
                PreparedRequest req = prepare(i);
                // Warm-up or measured is decided when the index is claimed, as claim() counted it: deciding again at
                // the send, a request claimed just before the warm-up ended would be measured beyond --requests.
                send(req, clock.now(), isWarmup(i, claimed), u);
                if (point.thinkTimeSeconds() > 0) clock.sleepUntil(clock.now() + seconds(point.thinkTimeSeconds()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            failed(e);
        }
    }

    /** A closed-loop user with sessions: one session after another until the run is over. */
    private void sessionUser(int u, long startAt) {
        try {
            clock.sleepUntil(startAt);
            while (runSession(share.nth(nextSession.getAndIncrement()), clock.now(), u)) {
                // the next session starts at once: a user leaves, another arrives
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            failed(e);
        }
    }

    /**
     * Open-loop sessions: each arrival, on the absolute schedule of the arrival process, starts a session on a
     * virtual thread of its own; its first turn is timed from the arrival's slot, later turns from when they were due.
     */
    private void openSessions(LoadModel.Open o) throws InterruptedException {
        ArrivalSchedule schedule = schedule(o);
        List<Thread> running = new ArrayList<>();
        while (!over) {
            long intended = schedule.nextNanos();
            if (intended < 0 || intended >= stopAt) break; // a replayed trace has ended, or the run's time
            long id = nextSession.getAndIncrement();
            if (!share.owns(id)) continue; // another worker's session
            clock.sleepUntil(intended);
            running.add(clock.start(Thread.ofVirtual().name("session-" + id), () -> {
                try {
                    runSession(id, intended, -1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Error e) {
                    failed(e);
                }
            }));
            if (running.size() % 1024 == 0) running.removeIf(th -> !th.isAlive());
        }
        // No new session: those running go on to the end of the run (or of its count, which claim() then set).
        for (Thread th : running) joinUntilGrace(th);
    }

    /**
     * One session, its first turn due at {@code firstDue}: each turn's request, its tool rounds, then its sub-calls in
     * parallel, then the think time. Returns false when the run ended before the session did (it is abandoned).
     */
    private boolean runSession(long session, long firstDue, int user) throws InterruptedException {
        var spec = point.sessions();
        SessionPrompts.Conversation c = sessions.start(session);
        for (int turn = 0; turn < c.turns(); turn++) {
            long due = turn == 0 ? firstDue : clock.now();
            long i = claimOrEnd(due);
            if (i < 0) return false;
            var where = new SessionTurn(session, turn, 0, 0, c.turns());
            Exchange e = send(c.turn(i, turn, Seeds.turn(point.seed(), where)), due, isWarmup(i, due), user);
            c.observe(e.record());
            if (!e.record().succeeded()) return true; // the user gives up on a failed turn; the record says why
            c.answered(e.answer(), e.record().completionTokens());
            for (int round = 1; round <= spec.toolCalls(); round++) {
                long r = claimOrEnd(clock.now());
                if (r < 0) return false;
                int call = spec.fanOut() + round;
                var at = new SessionTurn(session, turn, call, 0, c.turns());
                long toolDue = clock.now();
                PreparedRequest toolReq = c.toolRound(r, turn, round, Seeds.turn(point.seed(), at));
                Exchange tool = send(toolReq, toolDue, isWarmup(r, toolDue), user);
                c.observe(tool.record());
                if (!tool.record().succeeded()) return true;
                c.answered(tool.answer(), tool.record().completionTokens());
            }
            if (spec.fanOut() > 0 && !fanOut(c, session, turn, user)) return false;
            if (turn + 1 < c.turns()) {
                double traced = c.dueSeconds(turn + 1);
                if (!Double.isNaN(traced)) {
                    // A traced turn is due when the trace says, or when the last answer came if that was later.
                    clock.sleepUntil(Math.max(clock.now(), firstDue + seconds(traced)));
                } else {
                    double think = spec.thinkTime().sampleSeconds(Seeds.think(point.seed(), where));
                    if (think > 0) clock.sleepUntil(clock.now() + seconds(think));
                }
            }
        }
        return true;
    }

    /** A turn's sub-calls, sent at once and joined; false when the run ended before all were sent. */
    private boolean fanOut(SessionPrompts.Conversation c, long session, int turn, int user)
            throws InterruptedException {
        var spec = point.sessions();
        long due = clock.now();
        List<Thread> calls = new ArrayList<>();
        String[] answers = new String[spec.fanOut()];
        boolean all = true;
        for (int k = 1; k <= spec.fanOut(); k++) {
            long i = claimOrEnd(due);
            if (i < 0) {
                all = false;
                break;
            }
            var at = new SessionTurn(session, turn, k, 0, c.turns());
            PreparedRequest req = c.subCall(i, turn, k, Seeds.turn(point.seed(), at));
            int slot = k - 1;
            calls.add(clock.start(Thread.ofVirtual(), () -> {
                Exchange e = send(req, due, isWarmup(i, due), user);
                if (e.record().succeeded()) answers[slot] = e.answer();
            }));
        }
        for (Thread th : calls) th.join();
        for (String a : answers) c.subAnswered(a);
        return all;
    }

    /** A request's record and, for a session's request, the answer's text. */
    private record Exchange(RequestRecord record, String answer) {}

    /**
     * Sends {@code req} now for closed-loop {@code user} (-1: none), meant for {@code intended}: its record and, for a
     * session's request, its answer.
     */
    private Exchange send(PreparedRequest req, long intended, boolean warmup, int user) {
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
        try {
            RequestSender.Sent sent = sender.send(req, intended, 0, warmup);
            RequestRecord r = user < 0 ? sent.read() : sent.read().byUser(user);
            handle(req, r);
            return new Exchange(r, sent.answer());
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** {@link #claim}, noting when the run is over so that no new session starts. */
    private long claimOrEnd(long now) {
        long i = claim(now);
        if (i < 0) over = true;
        return i;
    }

    /**
     * The open loop's pacer, on the calling platform thread: each request is prepared ahead of its slot, the pacer
     * sleeps (spinning the last 100 µs) to the slot and hands it to a sender — a platform thread, waiting for work, so
     * the operating system wakes it at once whatever the virtual-thread carriers are doing — which times the send,
     * sends, and passes the response to a virtual thread to read; when every sender is busy, a virtual thread sends.
     * Under a concurrency cap a request that finds no free slot waits for one on a virtual thread, its wait reported.
     */
    private void openLoop(LoadModel.Open o) throws InterruptedException {
        Semaphore slots = point.maxConcurrency() > 0 ? new Semaphore(point.maxConcurrency()) : null;
        Queue<Thread> requests = new ConcurrentLinkedQueue<>();
        BlockingQueue<Slot> ready = new ArrayBlockingQueue<>(4096);
        // A platform thread, as the pacer and the senders are: on a virtual one it queued behind every response read.
        Thread preparer = clock.start(Thread.ofPlatform().daemon(true).name("preparer"), () -> prepareSlots(o, ready));
        ThreadPoolExecutor senders = new ThreadPoolExecutor(
                SENDERS,
                SENDERS,
                0,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                clock.threads(Thread.ofPlatform().daemon(true).name("sender-", 0)));
        senders.prestartAllCoreThreads();
        long sentSoFar = 0;
        try {
            while (true) {
                Slot next = ready.take();
                if (next.req() == null) {
                    if (next.traceEnded()) stopAt = Math.min(stopAt, clock.now()); // after the trace's last send
                    break;
                }
                long intended = next.intended();
                if (intended >= stopAt) break; // stopped (refused, or conclusive) since it was prepared
                clock.sleepUntil(intended);
                PreparedRequest req = next.req();
                boolean warmup = next.warmup();
                if (slots == null || slots.tryAcquire()) {
                    try {
                        senders.execute(() -> sendThenRead(req, intended, 0, warmup, slots, requests));
                    } catch (RejectedExecutionException allBusy) {
                        // Every sender still waits for a response's headers (a server that sends them late): this
                        // one leaves from a virtual thread, its lag measured like any other.
                        requests.add(clock.start(
                                Thread.ofVirtual(), () -> sendThenRead(req, intended, 0, warmup, slots, null)));
                    }
                } else {
                    requests.add(clock.start(Thread.ofVirtual(), () -> {
                        long before = clock.now();
                        try {
                            slots.acquire();
                        } catch (InterruptedException e) {
                            return;
                        }
                        sendThenRead(req, intended, clock.now() - before, warmup, slots, null);
                    }));
                }
                if (++sentSoFar % 4096 == 0) requests.removeIf(th -> !th.isAlive()); // size() would walk the queue
            }
            if (preparerFailure != null) throw preparerFailure; // as if the pacer had prepared it itself
            senders.shutdown();
            long graceEnd = stopAt == Long.MAX_VALUE
                    ? clock.now()
                    : stopAt + seconds(point.length().graceSeconds());
            senders.awaitTermination(Math.max(0, graceEnd - clock.now()), TimeUnit.NANOSECONDS);
            for (Thread th : requests) joinUntilGrace(th);
        } finally {
            preparer.interrupt(); // it may be waiting to hand over slots that will not be sent
            // Not shutdownNow: an interrupted sender would record the server as failing; what is still in flight at
            // the end of the grace is cut off by run() and recorded as incomplete.
            senders.shutdown();
        }
    }

    /** A request prepared for its slot; without a request, the end of the schedule (and whether a trace ended). */
    private record Slot(long intended, PreparedRequest req, boolean warmup, boolean traceEnded) {}

    /**
     * Lays the schedule and prepares each request (lengths, prompt, body) up to {@value #LOOKAHEAD_NANOS} ns ahead of
     * its slot, so that the pacer only sleeps and hands over. The schedule is absolute: each slot is computed from the
     * previous slot, never from "now".
     */
    private void prepareSlots(LoadModel.Open o, BlockingQueue<Slot> ready) {
        ArrivalSchedule schedule = schedule(o);
        try {
            while (true) {
                long intended = schedule.nextNanos();
                if (intended < 0) { // a replayed trace has ended
                    ready.put(new Slot(0, null, false, true));
                    return;
                }
                // Another worker's arrival is only counted, at once: waking for it would cost the pacer's core.
                boolean mine = share.owns(nextArrival());
                if (mine) parkUntilDueOrStopped(intended - LOOKAHEAD_NANOS, intended);
                long i = claimArrival(intended);
                if (i < 0) {
                    ready.put(new Slot(intended, null, false, false));
                    return;
                }
                if (!mine) continue;
                ready.put(new Slot(intended, prepare(i), isWarmup(i, intended), false));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            failed(e);
            end(ready);
        } catch (RuntimeException e) {
            preparerFailure = e; // e.g. a prompt that cannot be built: the pacer ends and throws it
            end(ready);
        }
    }

    /**
     * Parks until {@code wake}, in slices of at most {@link #STOP_CHECK_NANOS} while an arrival meant for
     * {@code intended} may still be sent: an arrival far past the run's end (a trace's next line days later) or a run
     * stopped meanwhile must not hold the preparer until that arrival's time.
     */
    private void parkUntilDueOrStopped(long wake, long intended) throws InterruptedException {
        for (long now = clock.now(); now < wake && intended < stopAt; now = clock.now()) {
            clock.parkUntil(Math.min(wake, now + STOP_CHECK_NANOS));
        }
    }

    /** Tells the pacer the schedule has ended (it drains the queue, so this waits at most for one slot's room). */
    private static void end(BlockingQueue<Slot> ready) {
        try {
            ready.put(new Slot(0, null, false, false));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends (timed on this thread), then reads the response on a virtual thread of its own, added to {@code readers}
     * (null: read here, as a request that waited for a slot is already on one).
     */
    private void sendThenRead(
            PreparedRequest req, long intended, long slotWait, boolean warmup, Semaphore slots, Queue<Thread> readers) {
        Runnable release = () -> {
            if (slots != null) slots.release();
        };
        try {
            int now = inFlight.incrementAndGet();
            peakInFlight.accumulateAndGet(now, Math::max);
            RequestSender.Sent sent = sender.send(req, intended, slotWait, warmup);
            Runnable read = () -> {
                try {
                    handle(req, sent.read());
                } catch (Error e) {
                    failed(e);
                } finally {
                    inFlight.decrementAndGet();
                    release.run();
                }
            };
            if (readers == null) read.run();
            else readers.add(clock.start(Thread.ofVirtual(), read));
        } catch (Error e) {
            inFlight.decrementAndGet();
            release.run();
            failed(e);
        }
    }

    /** The open loop's slots, from the run's arrival seed and ramp. */
    private ArrivalSchedule schedule(LoadModel.Open o) {
        return new ArrivalSchedule(o, point.length(), Seeds.arrivals(point.seed()));
    }

    /** Lengths come from a stream seeded by (seed, index): the same requests whatever the thread timing. */
    private PreparedRequest prepare(long index) {
        return prompts.prepare(index, Seeds.request(point.seed(), index));
    }

    /** What every finished request goes through: kept, handed to the sink, and the stop rules asked. */
    private void handle(PreparedRequest req, RequestRecord r) {
        finished.incrementAndGet();
        if (keep) records.add(r);
        else if (point.stopEarly() != null && !r.warmup()) {
            records.add(point.stopEarly().needsChunkTimes() ? r : r.withoutChunkTimes());
        }
        sink.accept(r);
        // Warm-up responses say what the server counted: the measured requests' lengths are corrected from them.
        if (r.warmup()) prompts.observe(req, r);
        String refused;
        synchronized (this) { // with claim(): no user claims a request once the pattern is complete
            refused = failFast.observe(r);
            if (refused != null) {
                refusal = refused;
                stopAt = Math.min(stopAt, clock.now());
            }
        }
        if (refused != null) sender.cutOff();
        if (point.stopEarly() != null
                && !r.warmup()
                && measuredDone.incrementAndGet() % MeasurementRequest.StopRule.CHECK_EVERY == 0
                && point.stopEarly()
                        .enough(records.stream().filter(x -> !x.warmup()).toList())) {
            stopAt = Math.min(stopAt, clock.now()); // conclusive: no new sends, those in flight finish
        }
    }

    private void joinUntilGrace(Thread t) throws InterruptedException {
        while (t.isAlive()) {
            long graceEnd = stopAt == Long.MAX_VALUE
                    ? Long.MAX_VALUE
                    : stopAt + seconds(point.length().graceSeconds());
            long wait = graceEnd == Long.MAX_VALUE ? 100 : Math.max(0, (graceEnd - clock.now()) / 1_000_000);
            if (wait == 0) return;
            t.join(Math.min(wait, 100));
        }
    }

    private void awaitQuiet() throws InterruptedException {
        long deadline = clock.now() + TimeUnit.SECONDS.toNanos(10);
        while (inFlight.get() > 0 && clock.now() < deadline) Thread.sleep(5);
    }
}
