package dev.headroom.sim.http;

import java.time.Instant;

/** Maps the monotonic clock onto Unix-epoch microseconds, fixed once at server start. */
final class TimeBase {
    private final long startNanos = System.nanoTime();
    private final long startEpochMicros = epochMicrosNow();

    private static long epochMicrosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    long epochMicros(long nanos) {
        return nanos < 0 ? -1 : startEpochMicros + (nanos - startNanos) / 1000;
    }
}
