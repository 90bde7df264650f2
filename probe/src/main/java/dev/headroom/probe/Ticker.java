package dev.headroom.probe;

import java.util.concurrent.ThreadFactory;

/**
 * Where a run's time comes from, how its threads wait for a time and how they are started: {@link #SYSTEM}, the
 * machine's clock and threads, or a test's virtual clock, which moves time on only once every thread of the run waits
 * (so it must start them itself). {@link RunClock} measures a run on one.
 */
interface Ticker {
    /** The monotonic clock, the wall clock and the machine's threads. */
    Ticker SYSTEM = new SystemTicker();

    /** Monotonic nanoseconds, as {@link System#nanoTime()}: only differences mean anything. */
    long nanoTime();

    /** The wall clock, in Unix-epoch microseconds. */
    long epochMicros();

    /** Waits until {@link #nanoTime()} reaches {@code deadline}, spinning (not parking) its last {@code spinNanos}. */
    void sleepUntil(long deadline, long spinNanos) throws InterruptedException;

    /** Makes the threads {@code builder} would make (a virtual clock may make them its own way). */
    ThreadFactory threads(Thread.Builder builder);
}
