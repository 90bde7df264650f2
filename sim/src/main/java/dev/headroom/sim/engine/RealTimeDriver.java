package dev.headroom.sim.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs an {@link Engine} on the real clock: a dedicated platform thread plans a step, sleeps until the step's
 * computed end, then applies it, so each token is produced at the time the roofline says. Submissions and
 * snapshots from other threads take the same short lock the engine thread holds while planning and applying.
 */
public final class RealTimeDriver implements AutoCloseable {
    /** Below this, the driver spins instead of parking: parking on Linux overshoots by ~50-100 µs. */
    private static final long SPIN_NANOS = 200_000;
    /** If the thread wakes this late, the engine's timeline resynchronises with the wall clock. */
    private static final long RESYNC_NANOS = 2_000_000;

    private final Engine engine;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition workArrived = lock.newCondition();
    private final Thread thread;
    private volatile boolean stopped;

    public RealTimeDriver(EngineConfig config) {
        this.engine = new Engine(config);
        this.thread = Thread.ofPlatform()
                .name("sim-engine")
                .daemon(true)
                .priority(Thread.MAX_PRIORITY)
                .unstarted(this::loop);
        thread.start();
    }

    /** The clock the driver keeps: {@link System#nanoTime()}. */
    public static long now() {
        return System.nanoTime();
    }

    /** Queues a sequence; false when the waiting queue is full or it can never fit. */
    public boolean submit(Sequence seq) {
        lock.lock();
        try {
            boolean ok = engine.submit(seq);
            if (ok) workArrived.signal();
            return ok;
        } finally {
            lock.unlock();
        }
    }

    /** Drops a sequence whose client is gone. */
    public void abort(Sequence seq) {
        lock.lock();
        try {
            engine.abort(seq);
        } finally {
            lock.unlock();
        }
    }

    /** A consistent view of the engine's gauges and counters. */
    public EngineSnapshot snapshot() {
        lock.lock();
        try {
            return new EngineSnapshot(
                    engine.runningCount(),
                    engine.waitingCount(),
                    engine.kvUsage(),
                    engine.totalBlocks(),
                    engine.promptTokensTotal(),
                    engine.generationTokensTotal(),
                    engine.preemptionsTotal(),
                    engine.finishedTotal(),
                    engine.stepsTotal(),
                    engine.prefixCacheQueries(),
                    engine.prefixCacheHits());
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        long timeline = now();
        while (!stopped) {
            Engine.Step step;
            lock.lock();
            try {
                while (!stopped && !engine.hasWork()) {
                    workArrived.await(100, TimeUnit.MILLISECONDS);
                }
                if (stopped) return;
                long wall = now();
                if (wall - timeline > RESYNC_NANOS) timeline = wall;
                // An idle engine starts its next step when the request arrives, not at the old timeline.
                if (engine.runningCount() == 0) timeline = Math.max(timeline, wall);
                step = engine.planStep(timeline);
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            if (step == null) {
                LockSupport.parkNanos(100_000);
                continue;
            }
            long end = timeline + step.nanos();
            sleepUntil(end);
            lock.lock();
            try {
                engine.finishStep(step, end);
            } finally {
                lock.unlock();
            }
            timeline = end;
        }
    }

    private static void sleepUntil(long deadline) {
        long remaining;
        while ((remaining = deadline - now()) > 0) {
            if (remaining > SPIN_NANOS + 50_000) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
