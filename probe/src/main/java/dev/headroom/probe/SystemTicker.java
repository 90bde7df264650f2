package dev.headroom.probe;

import java.time.Instant;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/** The real {@link Ticker}: {@link System#nanoTime()}, {@link Instant#now()}, parking, and the threads asked for. */
final class SystemTicker implements Ticker {
    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    @Override
    public void sleepUntil(long deadline, long spinNanos) throws InterruptedException {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            if (Thread.interrupted()) throw new InterruptedException();
            if (remaining > spinNanos + 50_000 || spinNanos == 0) LockSupport.parkNanos(remaining - spinNanos);
            else Thread.onSpinWait();
        }
    }

    @Override
    public ThreadFactory threads(Thread.Builder builder) {
        return builder.factory();
    }
}
