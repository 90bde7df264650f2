package dev.headroom.probe;

import dev.headroom.model.RequestRecord;

/**
 * What OkHttp's events said about one call's connection, filled in by {@link ConnectionTracker} on the calling
 * thread (a synchronous call runs its events there) and read by the executor after the call.
 */
final class CallTrace {
    volatile boolean connected;
    volatile boolean acquired;
    /** How long the connection had been idle in the pool before this call took it; 0 for a new one. */
    volatile long idleNanos;

    volatile boolean responseHeaders;
    /** A TLS handshake began and has not ended. */
    volatile boolean handshaking;

    RequestRecord.Connection connection() {
        if (!acquired) return RequestRecord.Connection.UNKNOWN;
        return connected ? RequestRecord.Connection.NEW : RequestRecord.Connection.REUSED;
    }

    /** A failure of this call is the client's race: it went out on a kept-alive connection and got no response. */
    boolean staleConnection() {
        return acquired && !connected && !responseHeaders;
    }
}
