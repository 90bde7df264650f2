package dev.headroom.sim.http;

import dev.headroom.sim.engine.FrontEnd;
import dev.headroom.sim.engine.RealTimeDriver;
import dev.headroom.sim.engine.Sequence;
import dev.headroom.sim.engine.SequenceListener;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Hands tokens from the engine thread to the one handler thread writing a response. The engine records the
 * token's intended time, publishes the count (volatile), and unparks the writer; the writer never blocks the
 * engine.
 */
final class StreamSession implements SequenceListener {
    private final Thread writer;
    private final FrontEnd frontEnd;
    final long[] intendedNanos;
    final long[] writtenNanos;
    private volatile int available;
    private volatile boolean finished;

    StreamSession(Thread writer, int outputTokens, FrontEnd frontEnd) {
        this.writer = writer;
        this.frontEnd = frontEnd;
        this.intendedNanos = new long[outputTokens];
        this.writtenNanos = new long[outputTokens];
    }

    @Override
    public void onToken(Sequence seq, int index, long nanos) {
        // Intended for when the front end has it written out: the engine's time when that costs nothing.
        intendedNanos[index] = frontEnd.token(nanos);
        available = index + 1;
        LockSupport.unpark(writer);
    }

    @Override
    public void onFinish(Sequence seq, long nanos) {
        finished = true;
        LockSupport.unpark(writer);
    }

    /** Parks until token {@code index}'s intended time (the front end's queue), if that is still ahead. */
    void awaitIntended(int index) {
        for (long left; (left = intendedNanos[index] - RealTimeDriver.now()) > 0; ) LockSupport.parkNanos(left);
    }

    /**
     * Blocks until more than {@code have} tokens exist (or the sequence finished); returns how many exist.
     * Throws when the server is shutting down (the handler thread is interrupted): park would return at once
     * forever and spin.
     */
    int awaitMore(int have) throws InterruptedIOException {
        while (available <= have && !finished) {
            if (Thread.interrupted()) throw new InterruptedIOException("server shutting down");
            LockSupport.park(this);
        }
        return available;
    }
}
