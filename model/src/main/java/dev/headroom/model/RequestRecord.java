package dev.headroom.model;

/**
 * What one request experienced. Times are nanoseconds from the start of the run; {@code -1} means "did not
 * happen" (e.g. no first token on a failed request).
 *
 * @param index          the request's sequence number in the run
 * @param intendedNanos  when the load model meant to send it (open loop: the scheduled arrival)
 * @param sentNanos      when it was actually sent
 * @param firstTokenNanos when the first output token arrived
 * @param endNanos       when the response ended (success or failure)
 * @param tokenNanos     arrival time of every output token (or chunk), in order
 * @param promptTokens   realised input length
 * @param completionTokens realised output length
 * @param requestedOutputTokens the output length that was asked for
 * @param preemptions    how often the server preempted it (simulator ground truth; 0 when unknown)
 * @param failure        null on success, otherwise why it failed
 */
public record RequestRecord(long index, long intendedNanos, long sentNanos, long firstTokenNanos, long endNanos,
                            long[] tokenNanos, int promptTokens, int completionTokens, int requestedOutputTokens,
                            int preemptions, Failure failure) {

    /** Why a request failed, with a machine-readable kind and a human detail. */
    public record Failure(String kind, String detail) {}

    public boolean succeeded() { return failure == null; }

    /** Time to first token, measured from the intended send time. */
    public long ttftNanos() { return firstTokenNanos < 0 ? -1 : firstTokenNanos - intendedNanos; }

    /** End-to-end latency, measured from the intended send time. */
    public long e2eNanos() { return endNanos - intendedNanos; }
}
