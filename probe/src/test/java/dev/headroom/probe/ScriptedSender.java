package dev.headroom.probe;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * A {@link RequestSender} whose server is a script, on the run's (virtual) clock: request {@code i}'s headers come
 * {@code headers(i)} ns after it is sent ({@link #send} returns then, as an HTTP send does) and its one chunk and end
 * {@code duration(i)} ns after it is sent. Every send is logged: when, meant for when, and from which thread.
 */
final class ScriptedSender implements RequestSender {
    /** One send as the driver made it. */
    record Send(long index, long intendedNanos, long sentNanos, long slotWaitNanos, boolean warmup, String thread) {}

    private final RunClock clock;
    private final LongUnaryOperator headers;
    private final LongUnaryOperator duration;
    private final List<Send> sends = Collections.synchronizedList(new ArrayList<>());

    ScriptedSender(RunClock clock, LongUnaryOperator headers, LongUnaryOperator duration) {
        this.clock = clock;
        this.headers = headers;
        this.duration = duration;
    }

    /** The sends so far, in the order they were made. */
    List<Send> sends() {
        synchronized (sends) {
            return List.copyOf(sends);
        }
    }

    @Override
    public Sent send(PreparedRequest req, long intendedNanos, long slotWaitNanos, boolean warmup) {
        long i = req.index();
        long sent = clock.now();
        sends.add(new Send(
                i,
                intendedNanos,
                sent,
                slotWaitNanos,
                warmup,
                Thread.currentThread().getName()));
        long firstToken = sent + headers.applyAsLong(i);
        boolean answered = waitUntil(firstToken);
        return new Sent() {
            @Override
            public RequestRecord read() {
                long end = sent + duration.applyAsLong(i);
                RequestRecord r = record(req, intendedNanos, sent, firstToken, end, slotWaitNanos, warmup);
                return answered && waitUntil(end) ? r : r.asIncomplete();
            }

            @Override
            public String answer() {
                return null;
            }
        };
    }

    @Override
    public void cutOff() {
        // The script ends each request on time; the driver's tests end their runs before the grace does.
    }

    private boolean waitUntil(long t) {
        try {
            clock.parkUntil(t);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static RequestRecord record(
            PreparedRequest req, long intended, long sent, long firstToken, long end, long slotWait, boolean warmup) {
        return new RequestRecord(
                req.index(),
                warmup,
                intended,
                sent,
                firstToken,
                end,
                new long[] {end},
                new int[] {req.requestedOutputTokens()},
                req.targetInputTokens(),
                TokenSource.USAGE,
                req.requestedOutputTokens(),
                TokenSource.USAGE,
                req.requestedOutputTokens(),
                200,
                0,
                slotWait,
                RequestRecord.Outcome.COMPLETED,
                null,
                null,
                -1,
                RequestRecord.Connection.UNKNOWN,
                req.targetInputTokens(),
                null,
                -1);
    }
}
