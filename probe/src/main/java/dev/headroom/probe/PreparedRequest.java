package dev.headroom.probe;

/**
 * One request ready to send: its JSON body and what it asked for.
 *
 * @param targetInputTokens the input length the prompt was built for (0 when unknown, e.g. a dataset prompt)
 * @param requestedOutputTokens max_tokens, or 0 when none was set
 */
record PreparedRequest(long index, byte[] body, int targetInputTokens, int requestedOutputTokens) {}
