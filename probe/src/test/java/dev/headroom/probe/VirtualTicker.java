package dev.headroom.probe;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A virtual {@link Ticker} for deterministic tests: time stands still while any thread of the run can act, and once
 * every one waits (parked, joined, or sleeping on this clock) it jumps to the earliest sleeper's deadline and wakes
 * the sleepers due then. It knows the run's threads because it makes them ({@link #threads}): all virtual, as their
 * state changes the moment one is woken. Run the code under test with {@link #run}; other threads may read the time
 * but not sleep on it.
 */
final class VirtualTicker implements Ticker, AutoCloseable {
    /** The wall clock's reading at virtual time 0, in Unix-epoch microseconds. */
    static final long EPOCH_MICROS = 1_700_000_000_000_000L;

    private final Set<Thread> parties = ConcurrentHashMap.newKeySet();
    private final PriorityQueue<Sleeper> sleepers = new PriorityQueue<>(Comparator.comparingLong(s -> s.deadline));
    /** Bumped by everything a party does here: an advance needs two quiet looks with nothing done in between. */
    private final AtomicLong version = new AtomicLong();

    private final Thread advancer;
    private volatile long now;
    private volatile boolean closed;

    /** A thread sleeping here until {@code deadline}; {@code woken} once time has reached it. */
    private static final class Sleeper {
        final Thread thread = Thread.currentThread();
        final long deadline;
        volatile boolean woken;

        Sleeper(long deadline) {
            this.deadline = deadline;
        }
    }

    VirtualTicker() {
        advancer = Thread.ofPlatform().daemon(true).name("virtual-ticker").start(this::advance);
    }

    @Override
    public long nanoTime() {
        version.incrementAndGet();
        return now;
    }

    @Override
    public long epochMicros() {
        return EPOCH_MICROS + now / 1000;
    }

    @Override
    public void sleepUntil(long deadline, long spinNanos) throws InterruptedException {
        Thread me = Thread.currentThread();
        if (!parties.contains(me)) throw new IllegalStateException(me + " was not started by this clock: use run");
        Sleeper s = new Sleeper(deadline);
        synchronized (this) {
            version.incrementAndGet();
            if (deadline <= now) return;
            sleepers.add(s);
        }
        while (!s.woken) {
            if (Thread.interrupted()) {
                synchronized (this) {
                    sleepers.remove(s);
                }
                throw new InterruptedException();
            }
            LockSupport.park(this);
        }
    }

    @Override
    public ThreadFactory threads(Thread.Builder builder) {
        return task -> {
            String name = builder.unstarted(() -> {}).getName(); // the name it would have had
            Thread t = Thread.ofVirtual().name(name).unstarted(() -> {
                try {
                    task.run();
                } finally {
                    version.incrementAndGet();
                }
            });
            parties.add(t); // before it starts: the starter is still running, so time cannot move in between
            version.incrementAndGet();
            return t;
        };
    }

    /** Runs {@code work} on a thread of this clock and returns what it returns (or throws what it throws). */
    <T> T run(Callable<T> work) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread t = threads(Thread.ofVirtual().name("test-run")).newThread(() -> {
            try {
                result.set(work.call());
            } catch (Exception e) {
                failure.set(e);
            }
        });
        t.start();
        t.join(60_000);
        if (t.isAlive()) throw new AssertionError("the run did not end within a minute of real time, at " + now);
        if (failure.get() != null) throw failure.get();
        return result.get();
    }

    /** The virtual time now, in nanoseconds. */
    long now() {
        return now;
    }

    @Override
    public void close() {
        closed = true;
        advancer.interrupt();
    }

    /** The advancer's loop: when every party waits, twice in a row with nothing done in between, time moves on. */
    private void advance() {
        while (!closed) {
            LockSupport.parkNanos(50_000);
            long seen;
            synchronized (this) {
                if (sleepers.isEmpty()) continue;
                seen = version.get();
            }
            if (!quiet()) continue;
            LockSupport.parkNanos(200_000);
            if (!quiet()) continue;
            synchronized (this) {
                if (version.get() != seen || sleepers.isEmpty()) continue;
                now = sleepers.peek().deadline;
                version.incrementAndGet();
                while (!sleepers.isEmpty() && sleepers.peek().deadline <= now) {
                    Sleeper s = sleepers.poll();
                    s.woken = true;
                    LockSupport.unpark(s.thread); // its state is RUNNABLE from here on: time stands still again
                }
            }
        }
    }

    /** Whether every party waits: parked (on this clock or elsewhere), or ended. */
    private boolean quiet() {
        for (Thread t : parties) {
            Thread.State state = t.getState();
            if (state == Thread.State.TERMINATED) parties.remove(t);
            else if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) return false;
        }
        return true;
    }
}
