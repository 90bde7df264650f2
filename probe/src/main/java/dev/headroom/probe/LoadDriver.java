package dev.headroom.probe;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
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

    private void openLoop(LoadModel.Open o) throws InterruptedException {
        ArrivalProcess.Gaps gaps = o.arrivals().gaps(o.ratePerSecond(), Seeds.arrivals(point.seed()));
        Semaphore slots = point.maxConcurrency() > 0 ? new Semaphore(point.maxConcurrency()) : null;
        double ramp = seconds(point.length().rampSeconds());
        double t = 0;
        List<Thread> requests = new ArrayList<>();
        while (true) {
            long intended = Math.round(t);
            long i = claim(intended);
            if (i < 0) break;
            // Prepared before its slot, so the send leaves on time.
            PreparedRequest req = prepare(i);
            clock.sleepUntil(intended);
            requests.add(Thread.ofVirtual().start(() -> {
                long wait = 0;
                if (slots != null) {
                    try {
                        if (!slots.tryAcquire()) {
                            long before = clock.now();
                            slots.acquire();
                            wait = clock.now() - before;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                try {
                    send(req, intended, wait, isWarmup(req.index(), intended));
                } catch (Error e) {
                    failed(e);
                } finally {
                    if (slots != null) slots.release();
                }
            }));
            // The schedule is absolute: each slot is computed from the previous slot, never from "now".
            double gap = gaps.nextSeconds() * 1e9;
            if (Double.isInfinite(gap)) { // a replayed trace has ended
                stopAt = Math.min(stopAt, clock.now());
                break;
            }
            if (ramp > 0 && t < ramp) gap /= Math.max(0.05, t / ramp);
            t += gap;
            if (requests.size() > 4096) requests.removeIf(th -> !th.isAlive());
        }
        for (Thread th : requests) joinUntilGrace(th);
    }

    /** Lengths come from a stream seeded by (seed, index): the same requests whatever the thread timing. */
    private PreparedRequest prepare(long index) {
        return prompts.prepare(index, Seeds.request(point.seed(), index));
    }

    private void send(PreparedRequest req, long intended, long slotWait, boolean warmup) {
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
        try {
            RequestRecord r = executor.execute(req, intended, slotWait, warmup);
            finished.incrementAndGet();
            if (keep || (point.stopEarly() != null && !r.warmup())) records.add(r);
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
        } finally {
            inFlight.decrementAndGet();
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
