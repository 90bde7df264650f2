package dev.headroom.probe;

import java.util.concurrent.ThreadFactory;

/**
 * Nanoseconds since the start of a run, on a {@link Ticker}'s monotonic clock; sleeps precisely to an absolute time,
 * and starts the run's threads on the same ticker (a virtual one must know every thread that may act).
 */
final class RunClock {
    private static final long SPIN_NANOS = 100_000;
    private final Ticker ticker;
    private final long origin;
    private final long originEpochMicros;

    /** A run starting now on the system's clock. */
    RunClock() {
        this(Ticker.SYSTEM);
    }

    /** A run starting now on {@code ticker}. */
    RunClock(Ticker ticker) {
        this(ticker, ticker.nanoTime());
    }

    /** A run whose time 0 is {@code origin} on {@code ticker}'s clock (a distributed run's agreed start). */
    RunClock(Ticker ticker, long origin) {
        this.ticker = ticker;
        this.origin = origin;
        this.originEpochMicros = ticker.epochMicros() - (ticker.nanoTime() - origin) / 1000;
    }

    /** Unix-epoch microseconds of run time 0, so records can be lined up with server-side timestamps. */
    long originEpochMicros() {
        return originEpochMicros;
    }

    long now() {
        return ticker.nanoTime() - origin;
    }

    /**
     * Sleeps until run time {@code t}: parks, then — on a platform thread, such as the open loop's pacer — spins the
     * last 100 µs so sends leave on time. A virtual thread only parks: spinning would hold one of the few carrier
     * threads that every response is read on.
     */
    void sleepUntil(long t) throws InterruptedException {
        ticker.sleepUntil(origin + t, Thread.currentThread().isVirtual() ? 0 : SPIN_NANOS);
    }

    /** Sleeps until about run time {@code t}, never spinning: for work that only has to be done by then. */
    void parkUntil(long t) throws InterruptedException {
        ticker.sleepUntil(origin + t, 0);
    }

    /** Starts {@code task} on a thread made as {@code builder} says, through the ticker. */
    Thread start(Thread.Builder builder, Runnable task) {
        Thread t = ticker.threads(builder).newThread(task);
        t.start();
        return t;
    }

    /** The threads {@code builder} makes, through the ticker: for a pool of the run's own. */
    ThreadFactory threads(Thread.Builder builder) {
        return ticker.threads(builder);
    }
}
