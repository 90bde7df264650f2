package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import java.util.Locale;

/**
 * How the probe treats kept-alive connections. Servers differ: some close after every streamed response while
 * saying keep-alive, Python servers close connections idle for 5 s, proxies close after N requests; a request sent
 * on a connection the server has just closed fails, and that failure is the client's, never the server's.
 */
public enum KeepAlive {
    /**
     * Reuse connections idle for less than {@link ConnectionPolicy#IDLE_LIMIT}; before the run, learn from one
     * streamed request whether the server closes after each response, and stop reusing if it does; after a failure
     * on a reused connection, reuse less.
     */
    AUTO,
    /** Reuse connections idle for less than {@link ConnectionPolicy#IDLE_LIMIT}; learn nothing. */
    ON,
    /** Send {@code Connection: close}: every request on a connection of its own. */
    OFF;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KeepAlive parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "on", "true", "yes" -> ON;
            case "off", "false", "no", "close" -> OFF;
            default -> throw new BadInputException("bad {keep-alive} '" + s + "': valid values are auto, on, off");
        };
    }
}
