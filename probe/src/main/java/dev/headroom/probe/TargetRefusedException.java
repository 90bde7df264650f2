package dev.headroom.probe;

/**
 * The run's first requests all failed the same way at once (HTTP 4xx other than 429, no connection, or malformed
 * events): the target refuses what is sent, and measuring on would only hammer it. Carries the server's own message.
 */
public final class TargetRefusedException extends RuntimeException {
    private final int recorded;

    public TargetRefusedException(String message, int recorded) {
        super(message, null, false, false);
        this.recorded = recorded;
    }

    /** Requests sent (and recorded) before the run stopped. */
    public int recorded() {
        return recorded;
    }
}
