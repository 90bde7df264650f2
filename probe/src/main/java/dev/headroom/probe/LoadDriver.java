package dev.headroom.probe;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Seeds;
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
 * does; its latencies are measured from that slot.
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

    private final RequestExecutor executor;
    private final RequestSource prompts;
    private final MeasurementRequest point;
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
    private final AtomicLong measuredDone = new AtomicLong();
    private final FailFast failFast = new FailFast();
    private volatile String refusal;
    private final AtomicReference<Error> fatal = new AtomicReference<>();
    private final Runnable onMeasuring;
    private volatile RuntimeException preparerFailure;
    private boolean measuring;

    LoadDriver(
            RequestExecutor executor,
            RequestSource prompts,
            MeasurementRequest point,
            RunClock clock,
            Consumer<RequestRecord> sink,
            Runnable onMeasuring,
            boolean keep) {
        this.onMeasuring = onMeasuring;
        this.keep = keep;
        this.executor = executor;
        this.prompts = prompts;
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
        executor.cutOff();
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
                    long start =
                            c.concurrency() == 1 ? 0 : seconds(point.length().rampSeconds()) * u / c.concurrency();
                    threads.add(Thread.ofVirtual().name("user-" + u).start(() -> user(start)));
                }
                for (Thread t : threads) joinUntilGrace(t);
            }
            case LoadModel.Open o -> openLoop(o);
        }
        executor.cutOff();
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
        long i = nextIndex.get();
        boolean warmup = isWarmup(i, now);
        if (!warmup
                && point.length().requests() > 0
                && measuredIssued.incrementAndGet() > point.length().requests()) {
            stopAt = now;
            return -1;
        }
        if (!warmup && !measuring) {
            measuring = true;
            onMeasuring.run();
        }
        return nextIndex.getAndIncrement();
    }

    private boolean isWarmup(long index, long intended) {
        return point.length().isWarmup(index, intended / 1e9);
    }

    private void user(long startAt) {
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
                send(req, clock.now(), 0, isWarmup(i, claimed));
                if (point.thinkTimeSeconds() > 0) clock.sleepUntil(clock.now() + seconds(point.thinkTimeSeconds()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            failed(e);
        }
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
        Thread preparer = Thread.ofPlatform().daemon(true).name("preparer").start(() -> prepareSlots(o, ready));
        ThreadPoolExecutor senders = new ThreadPoolExecutor(
                SENDERS,
                SENDERS,
                0,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                Thread.ofPlatform().daemon(true).name("sender-", 0).factory());
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
                        requests.add(
                                Thread.ofVirtual().start(() -> sendThenRead(req, intended, 0, warmup, slots, null)));
                    }
                } else {
                    requests.add(Thread.ofVirtual().start(() -> {
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
        ArrivalProcess.Gaps gaps = o.arrivals().gaps(o.ratePerSecond(), Seeds.arrivals(point.seed()));
        double ramp = seconds(point.length().rampSeconds());
        double t = 0;
        try {
            while (true) {
                long intended = Math.round(t);
                clock.parkUntil(intended - LOOKAHEAD_NANOS);
                long i = claim(intended);
                if (i < 0) {
                    ready.put(new Slot(intended, null, false, false));
                    return;
                }
                ready.put(new Slot(intended, prepare(i), isWarmup(i, intended), false));
                double gap = gaps.nextSeconds() * 1e9;
                if (Double.isInfinite(gap)) { // a replayed trace has ended
                    ready.put(new Slot(intended, null, false, true));
                    return;
                }
                if (ramp > 0 && t < ramp) gap /= Math.max(0.05, t / ramp);
                t += gap;
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
            RequestExecutor.Sent sent = executor.send(req, intended, slotWait, warmup);
            Runnable read = () -> {
                try {
                    handle(req, executor.read(sent));
                } catch (Error e) {
                    failed(e);
                } finally {
                    inFlight.decrementAndGet();
                    release.run();
                }
            };
            if (readers == null) read.run();
            else readers.add(Thread.ofVirtual().start(read));
        } catch (Error e) {
            inFlight.decrementAndGet();
            release.run();
            failed(e);
        }
    }

    /** Lengths come from a stream seeded by (seed, index): the same requests whatever the thread timing. */
    private PreparedRequest prepare(long index) {
        return prompts.prepare(index, Seeds.request(point.seed(), index));
    }

    private void send(PreparedRequest req, long intended, long slotWait, boolean warmup) {
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
        try {
            handle(req, executor.execute(req, intended, slotWait, warmup));
        } finally {
            inFlight.decrementAndGet();
        }
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
        String refused = failFast.observe(r);
        if (refused != null) {
            refusal = refused;
            stopAt = Math.min(stopAt, clock.now());
            executor.cutOff();
        }
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
