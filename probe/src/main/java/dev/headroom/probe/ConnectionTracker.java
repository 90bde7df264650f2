package dev.headroom.probe;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.Handshake;
import okhttp3.Response;

/**
 * OkHttp events to {@link CallTrace}s: whether each call opened its connection or took a kept-alive one, how long
 * that one had been idle, and whether any response came back on it. Calls without a trace tag are ignored.
 */
final class ConnectionTracker extends EventListener {
    private final Map<Connection, Long> releasedAt = Collections.synchronizedMap(new WeakHashMap<>());
    /** The run's clock: how long a connection was idle is measured as the run's requests are. */
    private final Ticker ticker;

    ConnectionTracker(Ticker ticker) {
        this.ticker = ticker;
    }

    EventListener.Factory factory() {
        return call -> call.request().tag(CallTrace.class) == null ? EventListener.NONE : this;
    }

    private static CallTrace trace(Call call) {
        return call.request().tag(CallTrace.class);
    }

    @Override
    public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
        trace(call).connected = true;
    }

    @Override
    public void secureConnectStart(Call call) {
        trace(call).handshaking = true;
    }

    @Override
    public void secureConnectEnd(Call call, Handshake handshake) {
        trace(call).handshaking = false;
    }

    @Override
    public void connectionAcquired(Call call, Connection connection) {
        CallTrace t = trace(call);
        Long released = releasedAt.remove(connection);
        t.idleNanos = t.connected || released == null ? 0 : ticker.nanoTime() - released;
        t.acquired = true;
    }

    @Override
    public void responseHeadersEnd(Call call, Response response) {
        trace(call).responseHeaders = true;
    }

    @Override
    public void connectionReleased(Call call, Connection connection) {
        releasedAt.put(connection, ticker.nanoTime());
    }
}
