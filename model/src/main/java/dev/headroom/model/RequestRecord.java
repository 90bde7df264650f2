package dev.headroom.model;

import java.util.Arrays;

/**
 * What one request experienced. Times are nanoseconds on the run's clock (0 = the start of the run); -1 means
 * "did not happen" (e.g. no first token on a failed request).
 *
 * @param index            the request's sequence number in the run
 * @param warmup           sent during warm-up: recorded but excluded from every metric
 * @param intendedNanos    when the load model meant to send it (open loop: its slot on the schedule)
 * @param sentNanos        when it was actually sent
 * @param firstTokenNanos  when the first content-bearing chunk arrived
 * @param endNanos         when the response ended (finished, failed or cut off)
 * @param chunkNanos       arrival time of every content-bearing chunk, in order
 * @param chunkTokens      tokens in each of those chunks (1 unless the server says a chunk carries more)
 * @param promptTokens     realised input length, and where it came from
 * @param completionTokens realised output length, and where it came from
 * @param requestedOutputTokens the output length asked for (max_tokens), 0 when none was set
 * @param httpStatus       the response status, 0 when there was no response
 * @param preemptions      how often the server preempted it (simulator ground truth; 0 when unknown)
 * @param slotWaitNanos    open loop with a concurrency cap: how long it waited for a free slot
 * @param outcome          completed, failed, incomplete (cut off at the end of the run) or the client's own error
 * @param failure          why it failed, or null
 * @param responseId       the id the server gave the response (X-Request-Id or the body's id), or null
 * @param cachedTokens     prompt tokens the server says it served from its prefix cache
 *                         ({@code usage.prompt_tokens_details.cached_tokens}), -1 when it does not say
 * @param connection       whether the request went out on a new or a reused connection
 * @param requestedInputTokens the input length the prompt was built for, 0 when none was asked for (a dataset)
 * @param turn             where it sits in a session, or null for an independent request
 * @param user             the closed-loop user that sent it (its number in the load point, from 0), -1 in an open
 *                         loop
 */
public record RequestRecord(
        long index,
        boolean warmup,
        long intendedNanos,
        long sentNanos,
        long firstTokenNanos,
        long endNanos,
        long[] chunkNanos,
        int[] chunkTokens,
        int promptTokens,
        TokenSource promptSource,
        int completionTokens,
        TokenSource completionSource,
        int requestedOutputTokens,
        int httpStatus,
        int preemptions,
        long slotWaitNanos,
        Outcome outcome,
        Failure failure,
        String responseId,
        int cachedTokens,
        Connection connection,
        int requestedInputTokens,
        SessionTurn turn,
        int user) {

    /**
     * How a request ended. {@code CLIENT_ERROR} is the client's own failure (it sent on a kept-alive connection the
     * server had already closed): recorded, but counted in no metric, neither as the server's error nor as served.
     */
    public enum Outcome {
        COMPLETED,
        FAILED,
        INCOMPLETE,
        CLIENT_ERROR
    }

    /** Whether a request opened a connection or went out on a kept-alive one; {@code UNKNOWN} without HTTP. */
    public enum Connection {
        NEW,
        REUSED,
        UNKNOWN
    }

    /** Why a request failed. */
    public record Failure(ErrorKind kind, String message) {}

    public boolean succeeded() {
        return outcome == Outcome.COMPLETED;
    }

    public boolean failed() {
        return outcome == Outcome.FAILED;
    }

    /** Whether it counts in the metrics: it completed or the server failed it (not cut off, not the client's fault). */
    public boolean measured() {
        return outcome == Outcome.COMPLETED || outcome == Outcome.FAILED;
    }

    /** Time of the last content chunk, or -1. */
    public long lastTokenNanos() {
        return chunkNanos.length == 0 ? -1 : chunkNanos[chunkNanos.length - 1];
    }

    /** Actual minus intended send time, less any wait for a free slot under a concurrency cap. */
    public long sendLagNanos() {
        return sentNanos - intendedNanos - slotWaitNanos;
    }

    /** Largest gap between consecutive content chunks, or 0. */
    public long maxGapNanos() {
        long max = 0;
        for (int i = 1; i < chunkNanos.length; i++) max = Math.max(max, chunkNanos[i] - chunkNanos[i - 1]);
        return max;
    }

    /**
     * This record with its first and last content chunk only (the first's tokens, then the rest's): every metric but
     * itl is as measured, in a few numbers instead of three per chunk — what a search keeps of a probe's requests when
     * no itl SLO needs the gaps.
     */
    public RequestRecord withoutChunkTimes() {
        if (chunkNanos.length <= 2) return this;
        int rest = 0;
        for (int k = 1; k < chunkTokens.length; k++) rest += chunkTokens[k];
        return copy(
                warmup,
                new long[] {chunkNanos[0], chunkNanos[chunkNanos.length - 1]},
                new int[] {chunkTokens[0], rest},
                outcome,
                failure);
    }

    /** This record, marked as sent during warm-up. */
    public RequestRecord asWarmup() {
        return copy(true, chunkNanos, chunkTokens, outcome, failure);
    }

    /** This record, marked as cut off at the end of the run. */
    public RequestRecord asIncomplete() {
        return copy(warmup, chunkNanos, chunkTokens, Outcome.INCOMPLETE, null);
    }

    private RequestRecord copy(boolean warm, long[] chunks, int[] tokens, Outcome ended, Failure why) {
        return copy(warm, chunks, tokens, ended, why, turn, sentNanos, slotWaitNanos, user);
    }

    private RequestRecord copy(
            boolean warm,
            long[] chunks,
            int[] tokens,
            Outcome ended,
            Failure why,
            SessionTurn where,
            long sent,
            long slotWait,
            int who) {
        return new RequestRecord(
                index,
                warm,
                intendedNanos,
                sent,
                firstTokenNanos,
                endNanos,
                chunks,
                tokens,
                promptTokens,
                promptSource,
                completionTokens,
                completionSource,
                requestedOutputTokens,
                httpStatus,
                preemptions,
                slotWait,
                ended,
                why,
                responseId,
                cachedTokens,
                connection,
                requestedInputTokens,
                where,
                who);
    }

    /**
     * This record as sent {@code waited} nanoseconds after its intended time, for want of a free slot under an open
     * loop's concurrency cap: its latencies still count from the intended time.
     */
    public RequestRecord afterSlotWait(long waited) {
        return copy(warmup, chunkNanos, chunkTokens, outcome, failure, turn, intendedNanos + waited, waited, user);
    }

    /** This record, as sent by closed-loop user {@code u}. */
    public RequestRecord byUser(int u) {
        return copy(warmup, chunkNanos, chunkTokens, outcome, failure, turn, sentNanos, slotWaitNanos, u);
    }

    /** This record, placed in a session. */
    public RequestRecord withTurn(SessionTurn where) {
        return copy(warmup, chunkNanos, chunkTokens, outcome, failure, where, sentNanos, slotWaitNanos, user);
    }

    /** A simple successful record with one token per chunk (used by the simulator and tests). */
    public static RequestRecord completed(
            long index,
            long intended,
            long sent,
            long[] tokenNanos,
            long end,
            int prompt,
            TokenSource promptSource,
            int requested,
            int preemptions) {
        return completed(index, intended, sent, tokenNanos, end, prompt, promptSource, requested, preemptions, -1);
    }

    /** As above, with the prompt tokens served from the prefix cache ({@code -1}: not reported). */
    public static RequestRecord completed(
            long index,
            long intended,
            long sent,
            long[] tokenNanos,
            long end,
            int prompt,
            TokenSource promptSource,
            int requested,
            int preemptions,
            int cachedTokens) {
        int[] ones = new int[tokenNanos.length];
        Arrays.fill(ones, 1);
        return new RequestRecord(
                index,
                false,
                intended,
                sent,
                tokenNanos.length == 0 ? -1 : tokenNanos[0],
                end,
                tokenNanos,
                ones,
                prompt,
                promptSource,
                tokenNanos.length,
                promptSource,
                requested,
                200,
                preemptions,
                0,
                Outcome.COMPLETED,
                null,
                null,
                cachedTokens,
                Connection.UNKNOWN,
                prompt,
                null,
                -1);
    }

    /** A failed record with no tokens. */
    public static RequestRecord failed(
            long index,
            long intended,
            long sent,
            long end,
            int prompt,
            int requested,
            int httpStatus,
            ErrorKind kind,
            String message) {
        return new RequestRecord(
                index,
                false,
                intended,
                sent,
                -1,
                end,
                new long[0],
                new int[0],
                prompt,
                TokenSource.REQUESTED,
                0,
                TokenSource.COUNTED,
                requested,
                httpStatus,
                0,
                0,
                Outcome.FAILED,
                new Failure(kind, message),
                null,
                -1,
                Connection.UNKNOWN,
                prompt,
                null,
                -1);
    }
}
