package dev.headroom.probe;

import dev.headroom.model.RequestRecord;

/**
 * What the {@link LoadDriver} asks of the client that sends its requests ({@link RequestExecutor} over HTTP): send
 * one, read its response, cut off the rest. A seam, so that the pacer and the users can be run in a test against a
 * scripted fake on a virtual clock.
 */
interface RequestSender {

    /**
     * Sends {@code req} on the calling thread, timed there just before it leaves, and waits for the response's headers
     * (or a failure); the response is read by {@link Sent#read()}.
     */
    Sent send(PreparedRequest req, long intendedNanos, long slotWaitNanos, boolean warmup);

    /** Ends the run: what is still in flight is recorded as incomplete, not failed. */
    void cutOff();

    /** A request sent, whose response (or failure) is still to be read. */
    interface Sent {
        /** Reads the response to its end (or failure) into its record, never throwing for what the server did. */
        RequestRecord read();

        /** A session request's answer text, as the server streamed it (null for an independent request). */
        String answer();
    }
}
