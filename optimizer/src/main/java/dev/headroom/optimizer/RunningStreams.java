package dev.headroom.optimizer;

import dev.headroom.model.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * How many requests a server was streaming at once during a probe, read off the records: each request streams from
 * its first token to its last, and the count it exceeded for at most 1 % of the probe's time is what the server
 * runs together. When a closed loop keeps more users than that in flight, the rest wait: the server's running batch
 * is full, whatever it states about itself.
 */
final class RunningStreams {
    /**
     * The share of the time the count may stay above the level read: at a full batch it reads the cap itself (at 5 %,
     * one less when a slot is always in prefill), and a stray late chunk does not count.
     */
    static final double ABOVE = 0.01;

    private RunningStreams() {}

    /**
     * The batch cap a closed-loop probe of {@code users} shows when the server streamed only {@code running} at once:
     * more users than that by over twice the tolerance means the rest waited for a place, so the running batch was
     * full. NaN when the probe shows none (fewer users, or no reading).
     */
    static double cap(double users, double running, double tolerance) {
        return running >= 2 && users > running * (1 + 2 * tolerance) ? Math.round(running) : Double.NaN;
    }

    /**
     * The users a closed loop needs to keep {@code streams} streaming without a wait (Little's law): each user's
     * request streams (first token to last) for only mean(first token → last) of its cycle, mean(send → end) — the rest
     * is the server's per-request work and the prefill, during which its slot does not stream. NaN without requests
     * that streamed, or without a reading of the streams.
     */
    static double fillUsers(List<RequestRecord> records, double streams) {
        double cycle = 0, streaming = 0;
        for (RequestRecord r : records) {
            if (r.warmup() || !r.succeeded() || r.firstTokenNanos() < 0 || r.lastTokenNanos() <= r.firstTokenNanos()) {
                continue;
            }
            cycle += r.endNanos() - r.sentNanos();
            streaming += r.lastTokenNanos() - r.firstTokenNanos();
        }
        return streaming > 0 && streams > 0 ? streams * cycle / streaming : Double.NaN;
    }

    /** The count of concurrent streams exceeded for at most {@value #ABOVE} of the time; NaN with under two streams. */
    static double level(List<RequestRecord> records) {
        List<long[]> events = new ArrayList<>(); // {time, +1 start or -1 end}
        for (RequestRecord r : records) {
            if (!r.succeeded() || r.firstTokenNanos() < 0 || r.lastTokenNanos() <= r.firstTokenNanos()) continue;
            events.add(new long[] {r.firstTokenNanos(), 1});
            events.add(new long[] {r.lastTokenNanos(), -1});
        }
        if (events.size() < 4) return Double.NaN;
        // Ends before starts at the same instant: a slot freed and taken again is one stream, not two.
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long span = events.getLast()[0] - events.getFirst()[0];
        if (span <= 0) return Double.NaN;
        // Time spent at each count, then the count the time above which is at most ABOVE of the span.
        java.util.TreeMap<Integer, Long> timeAt = new java.util.TreeMap<>();
        int count = 0;
        for (int i = 0; i < events.size() - 1; i++) {
            count += (int) events.get(i)[1];
            long dt = events.get(i + 1)[0] - events.get(i)[0];
            if (dt > 0) timeAt.merge(count, dt, Long::sum);
        }
        long above = 0;
        for (var e : timeAt.descendingMap().entrySet()) {
            above += e.getValue();
            if (above > ABOVE * span) return e.getKey();
        }
        return timeAt.firstKey();
    }
}
