package dev.headroom.probe;

import dev.headroom.model.SessionTurn;

/**
 * One request ready to send: its JSON body and what it asked for.
 *
 * @param targetInputTokens the input length the prompt was built for (0 when unknown, e.g. a dataset prompt)
 * @param requestedOutputTokens max_tokens, or 0 when none was set
 * @param fillerWords the synthetic prompt's filler words (what its length model is fitted on), -1 for other prompts
 * @param turn where it sits in a session (its answer's text is kept for the session's history), or null
 */
record PreparedRequest(
        long index, byte[] body, int targetInputTokens, int requestedOutputTokens, int fillerWords, SessionTurn turn) {

    /** An independent request. */
    PreparedRequest(long index, byte[] body, int targetInputTokens, int requestedOutputTokens, int fillerWords) {
        this(index, body, targetInputTokens, requestedOutputTokens, fillerWords, null);
    }
}
