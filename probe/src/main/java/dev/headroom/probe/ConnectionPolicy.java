package dev.headroom.probe;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * Which connections a run's requests go out on, and what it learned about the server's. Reusing a kept-alive
 * connection is safe only while the server still has it open: connections idle for {@link #IDLE_LIMIT} are
 * dropped by the client first (uvicorn, which vLLM and SGLang run on, and cpp-httplib close at 5 s); a server seen
 * closing after each response gets {@code Connection: close} on every request; after a request fails on a reused
 * connection (the client's race, never the server's error), idle connections are kept half as long as that one was.
 * Thread-safe: requests read the current client while a failure may replace it.
 */
final class ConnectionPolicy {
    /** Below the 5-s idle timeouts of uvicorn and cpp-httplib, with a second to spare. */
    static final Duration IDLE_LIMIT = Duration.ofSeconds(4);
    /** A reused connection that failed after being idle for less than this was closed at the end of its response. */
    static final Duration CLOSED_AFTER_RESPONSE = Duration.ofMillis(250);

    private static final Duration MIN_IDLE = Duration.ofMillis(50);

    private final OkHttpClient base;
    private final int maxIdle;
    private final KeepAlive mode;
    private volatile OkHttpClient current;
    private volatile boolean closeEach;
    private volatile Duration idleLimit;
    private volatile String learned;

    /** Starts from what an earlier run against the same target learned ({@code previous}, or null). */
    ConnectionPolicy(OkHttpClient base, int maxIdle, KeepAlive mode, ConnectionPolicy previous) {
        this.base = base;
        this.maxIdle = maxIdle;
        this.mode = mode;
        this.closeEach = mode == KeepAlive.OFF || (previous != null && previous.closeEach);
        this.idleLimit = previous != null ? previous.idleLimit : IDLE_LIMIT;
        this.learned = previous != null ? previous.learned : null;
        this.current = withIdleLimit(idleLimit);
    }

    OkHttpClient client() {
        return current;
    }

    /** Whether the server's behaviour after a streamed response is still to be learned before the run. */
    boolean needsLearning() {
        return mode == KeepAlive.AUTO && learned == null;
    }

    /** Adds {@code Connection: close} when the server is not to be trusted with kept-alive connections. */
    Request.Builder decorate(Request.Builder rb) {
        return closeEach ? rb.header("Connection", "close") : rb;
    }

    /** What the preflight saw the server do with a connection after a streamed response, when it changes nothing. */
    void learned(String what) {
        learned = what;
    }

    /** The server closed a connection at the end of a response: from now on each request gets its own. */
    synchronized void learnedClosesAfterEachResponse(String how) {
        learned = how;
        if (mode == KeepAlive.AUTO) switchToCloseEach();
    }

    /** A request failed on a connection that had been idle for {@code idleNanos}: reuse less, as learned. */
    synchronized void onStale(long idleNanos) {
        if (mode != KeepAlive.AUTO || closeEach) return;
        if (idleNanos < CLOSED_AFTER_RESPONSE.toNanos()) {
            learned = "closed a kept-alive connection " + millis(idleNanos) + " after a response";
            switchToCloseEach();
        } else {
            Duration shorter = Duration.ofNanos(Math.max(MIN_IDLE.toNanos(), idleNanos / 2));
            if (shorter.compareTo(idleLimit) < 0) {
                learned = "closed a connection idle for " + millis(idleNanos);
                idleLimit = shorter;
                replace(withIdleLimit(shorter));
            }
        }
    }

    private void switchToCloseEach() {
        closeEach = true;
        replace(current);
    }

    private void replace(OkHttpClient next) {
        OkHttpClient old = current;
        current = next;
        // Kept-alive connections are suspect now: none is reused.
        old.connectionPool().evictAll();
    }

    private OkHttpClient withIdleLimit(Duration limit) {
        return base.newBuilder()
                .connectionPool(new ConnectionPool(maxIdle, limit.toMillis(), TimeUnit.MILLISECONDS))
                .build();
    }

    /** For results: the mode, what the client does now, and what it learned. */
    String describe() {
        String now = closeEach
                ? "a new connection per request (Connection: close)"
                : "kept-alive connections reused while idle < " + millis(idleLimit.toNanos());
        return mode.wireName() + ": " + now + (learned == null ? "" : "; the server " + learned);
    }

    void close() {
        current.connectionPool().evictAll();
    }

    private static String millis(long nanos) {
        return nanos >= 1_000_000_000
                ? String.format(Locale.ROOT, "%.1f s", nanos / 1e9)
                : String.format(Locale.ROOT, "%d ms", nanos / 1_000_000);
    }
}
