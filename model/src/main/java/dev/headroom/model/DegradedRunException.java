package dev.headroom.model;

/**
 * A distributed load point whose load fell short because a worker died, stalled or failed (docs/distributed.md):
 * what it measured is written, but it is no answer to what was asked — a search stops at it rather than judge it.
 */
public final class DegradedRunException extends RuntimeException {
    public DegradedRunException(String message) {
        super(message, null, false, false);
    }
}
