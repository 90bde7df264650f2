package dev.headroom.sim.http;

/** Maps the monotonic clock onto Unix-epoch microseconds, fixed once at server start. */
final class TimeBase {
    private final long startNanos = System.nanoTime();
    private final long startEpochMicros = java.time.Instant.now().toEpochMilli() * 1000
            + (java.time.Instant.now().getNano() / 1000) % 1000;

    long epochMicros(long nanos) {
        return nanos < 0 ? -1 : startEpochMicros + (nanos - startNanos) / 1000;
    }
}
