package dev.headroom.sim.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Applies {@link ServerBehaviour#idleTimeout()} to every exchange. The JDK server closes a connection when a handler
 * throws before its response is written, so throwing at the start of a request on a connection idle for too long is
 * what a client that reuses a connection the server has just closed sees. (Closing after each stream is
 * {@link GenerationHandler}'s, through {@link Http#readBody(com.sun.net.httpserver.HttpExchange, int, boolean)}.)
 * A connection is known by the client's address and port (a port the client reuses for a new connection after an
 * idle timeout looks like the old one: fine for tests, which is what this is for).
 */
final class ConnectionFilter extends Filter {
    /** Thrown to make the JDK server close the connection. */
    static final class Close extends RuntimeException {
        Close() {
            super("connection closed by the simulated server", null, false, false);
        }
    }

    private final ServerBehaviour behaviour;
    private final Map<String, Long> idleSince = new ConcurrentHashMap<>();

    ConnectionFilter(ServerBehaviour behaviour) {
        this.behaviour = behaviour;
    }

    @Override
    public void doFilter(HttpExchange ex, Chain chain) throws IOException {
        String connection = String.valueOf(ex.getRemoteAddress());
        Long since = idleSince.remove(connection);
        if (since != null
                && behaviour.idleTimeout() != null
                && System.nanoTime() - since > behaviour.idleTimeout().toNanos()) {
            throw new Close(); // the server closed it while idle; the request meets a dead connection
        }
        chain.doFilter(ex);
        idleSince.put(connection, System.nanoTime());
    }

    @Override
    public String description() {
        return "the simulated server's connection behaviour";
    }
}
