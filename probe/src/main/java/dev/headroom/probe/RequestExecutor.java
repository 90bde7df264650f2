package dev.headroom.probe;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

/**
 * Sends one request and turns whatever happens into a {@link RequestRecord}: a misbehaving server is measured and
 * classified, never thrown. {@link #execute} does both halves on the calling (virtual) thread; an open loop sends
 * from a platform thread ({@link #send}) and reads on a virtual one ({@link SentCall#read()}).
 */
final class RequestExecutor implements RequestSender {
    private static final MediaType JSON = MediaType.get("application/json");
    /**
     * A closed connection fails the request within a round trip; a reused connection that breaks later without a
     * response is the server's failure (it went away while working), measured as {@code reset}.
     */
    static final Duration STALE_WITHIN = Duration.ofSeconds(1);

    private final ConnectionPolicy connections;
    private final Target target;
    private final RunClock clock;
    private final ScheduledExecutorService watchdog;
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean cutOff;

    RequestExecutor(ConnectionPolicy connections, Target target, RunClock clock, ScheduledExecutorService watchdog) {
        this.connections = connections;
        this.target = target;
        this.clock = clock;
        this.watchdog = watchdog;
    }

    /** Ends the run: cancels every call still in flight; they are recorded as incomplete, not failed. */
    @Override
    public void cutOff() {
        cutOff = true;
        for (Call c : inFlight) c.cancel();
    }

    /** Why the watchdog cancelled a call, if it did. */
    private static final class Timeouts {
        volatile ErrorKind fired;
    }

    RequestRecord execute(PreparedRequest req, long intendedNanos, long slotWaitNanos, boolean warmup) {
        return read(send(req, intendedNanos, slotWaitNanos, warmup));
    }

    /** A request sent over HTTP, whose response (or failure) is still to be read. */
    final class SentCall implements RequestSender.Sent {
        private final PreparedRequest req;
        private final long intendedNanos, slotWaitNanos, sent;
        private final boolean warmup;
        private final Call call;
        private final StreamState state;
        private final Timeouts timeouts = new Timeouts();
        private final CallTrace trace;
        private ScheduledFuture<?> firstTokenGuard, totalGuard;
        private Response response;
        private IOException error;

        private SentCall(
                PreparedRequest req,
                long intendedNanos,
                long slotWaitNanos,
                boolean warmup,
                Call call,
                long sent,
                CallTrace trace) {
            this.trace = trace;
            this.req = req;
            this.intendedNanos = intendedNanos;
            this.slotWaitNanos = slotWaitNanos;
            this.warmup = warmup;
            this.call = call;
            this.sent = sent;
            this.state = new StreamState(req.turn() != null);
        }

        @Override
        public RequestRecord read() {
            return RequestExecutor.this.read(this);
        }

        @Override
        public String answer() {
            return state.answer();
        }
    }

    /**
     * Sends the request on the calling thread and waits for the response's headers (or a failure): the send time is
     * taken on this thread just before the call, so an open loop's sender, a platform thread, times it exactly.
     */
    @Override
    public SentCall send(PreparedRequest req, long intendedNanos, long slotWaitNanos, boolean warmup) {
        Request.Builder rb = new Request.Builder()
                .url(target.url(target.api().path()))
                .post(RequestBody.create(req.body(), JSON))
                .header("Accept", "text/event-stream");
        RequestBodies.authorized(target, rb);
        connections.decorate(rb);
        CallTrace trace = new CallTrace();
        rb.tag(CallTrace.class, trace);
        Call call = connections.client().newCall(rb.build());
        inFlight.add(call);
        SentCall f = new SentCall(req, intendedNanos, slotWaitNanos, warmup, call, clock.now(), trace);
        f.firstTokenGuard = watchdog.schedule(
                () -> {
                    if (f.state.firstTokenNanos < 0) {
                        f.timeouts.fired = ErrorKind.TIMEOUT_FIRST_TOKEN;
                        call.cancel();
                    }
                },
                target.firstTokenTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
        f.totalGuard = watchdog.schedule(
                () -> {
                    if (f.timeouts.fired == null) f.timeouts.fired = ErrorKind.TIMEOUT_TOTAL;
                    call.cancel();
                },
                target.totalTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
        try {
            f.response = call.execute();
        } catch (IOException e) {
            f.error = e;
        }
        return f;
    }

    /** Reads what {@link #send} got (on a virtual thread: every response is read on the same few carriers). */
    private RequestRecord read(SentCall f) {
        StreamState state = f.state;
        Timeouts timeouts = f.timeouts;
        CallTrace trace = f.trace;
        Call call = f.call;
        PreparedRequest req = f.req;
        long sent = f.sent, intendedNanos = f.intendedNanos, slotWaitNanos = f.slotWaitNanos;
        boolean warmup = f.warmup;
        int status = 0;
        ErrorKind kind = null;
        String message = null;
        try {
            if (f.error != null) throw f.error;
            try (Response response = f.response) {
                status = response.code();
                state.responseId = response.header("X-Request-Id");
                if (!response.isSuccessful()) {
                    kind = ErrorKind.forStatus(status);
                    message = "HTTP " + status + ": " + errorMessage(response.body());
                } else if (isEventStream(response)) {
                    EventSources.processResponse(response, new Listener(state));
                } else {
                    state.onWholeBody(response.body().string(), clock.now());
                }
            }
        } catch (IOException e) {
            kind = classify(e, state, timeouts, trace);
            message = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            if (kind == ErrorKind.CONNECT && e instanceof SocketTimeoutException && trace.handshaking) {
                message = "the TLS handshake got no answer within "
                        + target.connectTimeout().toMillis() + " ms (--connect-timeout)";
            }
            if (timeouts.fired == null
                    && !cutOff
                    && trace.staleConnection()
                    && clock.now() - sent < STALE_WITHIN.toNanos()) {
                // Sent on a kept-alive connection the server had already closed: the client's race, not a server
                // error. Not resent (a POST may have side effects); the policy reuses less from now on.
                connections.onStale(trace.idleNanos);
                kind = ErrorKind.STALE_CONNECTION;
                message = "sent on a kept-alive connection the server had closed (idle " + trace.idleNanos / 1_000_000
                        + " ms): " + message;
            }
        } finally {
            f.firstTokenGuard.cancel(false);
            f.totalGuard.cancel(false);
            inFlight.remove(call);
        }
        long end = clock.now();
        if (cutOff && call.isCanceled() && timeouts.fired == null) {
            return toRecord(req, intendedNanos, sent, end, status, slotWaitNanos, warmup, state, trace, null, null)
                    .asIncomplete();
        }
        if (kind == null && state.failure != null) {
            kind = timeouts.fired != null ? timeouts.fired : classify(state.failure, state, timeouts, trace);
            message = state.failure.getClass().getSimpleName() + ": " + state.failure.getMessage();
        }
        if (kind == null && state.errorKind != null) {
            kind = state.errorKind;
            message = state.errorMessage;
        }
        if (kind == null && !(state.finished || state.done)) {
            kind = ErrorKind.TRUNCATED;
            message = "stream ended without finish_reason or [DONE]";
        }
        if (kind == null && state.chunks == 0) {
            kind = ErrorKind.EMPTY;
            message = "response finished with no output tokens";
        }
        return toRecord(req, intendedNanos, sent, end, status, slotWaitNanos, warmup, state, trace, kind, message);
    }

    private RequestRecord toRecord(
            PreparedRequest req,
            long intended,
            long sent,
            long end,
            int status,
            long slotWait,
            boolean warmup,
            StreamState s,
            CallTrace trace,
            ErrorKind kind,
            String message) {
        int prompt = s.usagePrompt >= 0 ? s.usagePrompt : req.targetInputTokens();
        TokenSource promptSource = s.usagePrompt >= 0 ? TokenSource.USAGE : TokenSource.TOKENIZER;
        int completion = s.usageCompletion >= 0 ? s.usageCompletion : s.countedTokens;
        TokenSource completionSource = s.usageCompletion >= 0 ? TokenSource.USAGE : TokenSource.COUNTED;
        RequestRecord.Outcome outcome = kind == null
                ? RequestRecord.Outcome.COMPLETED
                : kind == ErrorKind.STALE_CONNECTION
                        ? RequestRecord.Outcome.CLIENT_ERROR
                        : RequestRecord.Outcome.FAILED;
        return new RequestRecord(
                req.index(),
                warmup,
                intended,
                sent,
                s.firstTokenNanos,
                end,
                s.chunkTimes(),
                s.tokensPerChunk(),
                prompt,
                promptSource,
                completion,
                completionSource,
                req.requestedOutputTokens(),
                status,
                0,
                slotWait,
                outcome,
                kind == null ? null : new RequestRecord.Failure(kind, message),
                s.responseId,
                s.usageCached,
                trace.connection(),
                req.targetInputTokens(),
                req.turn(),
                -1);
    }

    private static ErrorKind classify(Throwable e, StreamState state, Timeouts timeouts, CallTrace trace) {
        if (timeouts.fired != null) return timeouts.fired;
        if (trace.connected && !trace.acquired) {
            // A connection was being opened and never came up (TCP, or a TLS handshake the port never answered).
            return ErrorKind.CONNECT;
        }
        if (e instanceof ConnectException
                || e instanceof UnknownHostException
                || e instanceof NoRouteToHostException
                || (e instanceof SSLException && state.chunks == 0)
                || (e instanceof SocketTimeoutException
                        && String.valueOf(e.getMessage()).contains("connect"))) {
            return ErrorKind.CONNECT;
        }
        if (e instanceof InterruptedIOException && state.firstTokenNanos < 0 && state.chunks == 0) {
            return ErrorKind.TIMEOUT_FIRST_TOKEN;
        }
        return ErrorKind.RESET;
    }

    private static boolean isEventStream(Response r) {
        MediaType type = r.body().contentType();
        return type != null && type.type().equals("text") && type.subtype().equals("event-stream");
    }

    private static String errorMessage(ResponseBody body) {
        try {
            var source = body.source();
            source.request(4096);
            String s = source.getBuffer()
                    .readUtf8(Math.min(4096, source.getBuffer().size()));
            return StreamState.abbreviate(s.isBlank() ? "(empty body)" : s);
        } catch (IOException | RuntimeException e) {
            return "(body unreadable: " + e.getMessage() + ")";
        }
    }

    /** Feeds SSE events into the state with their arrival time. */
    private final class Listener extends EventSourceListener {
        private final StreamState state;

        Listener(StreamState state) {
            this.state = state;
        }

        @Override
        public void onEvent(EventSource source, String id, String type, String data) {
            state.onEvent(data, clock.now());
        }

        @Override
        public void onFailure(EventSource source, Throwable t, Response response) {
            if (t != null) state.failure = t;
        }
    }
}
