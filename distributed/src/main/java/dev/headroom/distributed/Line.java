package dev.headroom.distributed;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.RequestRecord;

/**
 * One line of a worker's answer to a run, exactly one component set: {@code ready} once its share is prepared (it
 * then waits for the start), a finished request's {@code record}, a {@code beat} every second (a silent worker has
 * stalled), and its {@code end}, last.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Line(Boolean ready, RequestRecord record, Long beat, End end) {
    static Line readyNow() {
        return new Line(true, null, null, null);
    }

    static Line of(RequestRecord r) {
        return new Line(null, r, null, null);
    }

    static Line beating(long n) {
        return new Line(null, null, n, null);
    }

    static Line ending(End e) {
        return new Line(null, null, null, e);
    }

    /**
     * How a worker's share ended.
     *
     * @param refusal why the server refused every first request (the probe's fail-fast), or null
     * @param failure why the share could not run or stopped (the worker's own error), or null
     */
    record End(
            long records,
            long elapsedNanos,
            String model,
            String inputLength,
            String connections,
            ClientHealth.Observed client,
            String refusal,
            String failure) {}
}
