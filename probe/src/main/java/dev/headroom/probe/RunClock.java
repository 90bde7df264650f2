package dev.headroom.probe;

import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/** Nanoseconds since the start of a run, on the monotonic clock; sleeps precisely to an absolute time. */
final class RunClock {
    private static final long SPIN_NANOS = 100_000;
    private final long origin = System.nanoTime();
    private final long originEpochMicros = epochMicrosNow();

    private static long epochMicrosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    /** Unix-epoch microseconds of run time 0, so records can be lined up with server-side timestamps. */
    long originEpochMicros() {
        return originEpochMicros;
    }

    long now() {
        return System.nanoTime() - origin;
    }

    /**
     * Sleeps until run time {@code t}: parks, then — on a platform thread, such as the open loop's pacer — spins the
     * last 100 µs so sends leave on time. A virtual thread only parks: spinning would hold one of the few carrier
     * threads that every response is read on.
     */
    void sleepUntil(long t) throws InterruptedException {
        long spin = Thread.currentThread().isVirtual() ? 0 : SPIN_NANOS;
        long remaining;
        while ((remaining = t - now()) > 0) {
            if (Thread.interrupted()) throw new InterruptedException();
            if (remaining > spin + 50_000 || spin == 0) LockSupport.parkNanos(remaining - spin);
            else Thread.onSpinWait();
        }
    }

    /** Sleeps until about run time {@code t}, never spinning: for work that only has to be done by then. */
    void parkUntil(long t) throws InterruptedException {
        long remaining;
        while ((remaining = t - now()) > 0) {
            if (Thread.interrupted()) throw new InterruptedException();
            LockSupport.parkNanos(remaining);
        }
    }
}
