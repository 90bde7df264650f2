package dev.headroom.probe;

/**
 * One request ready to send: its JSON body and what it asked for.
 *
 * @param targetInputTokens the input length the prompt was built for (0 when unknown, e.g. a dataset prompt)
 * @param requestedOutputTokens max_tokens, or 0 when none was set
 * @param fillerWords the synthetic prompt's filler words (what its length model is fitted on), -1 for other prompts
 */
record PreparedRequest(long index, byte[] body, int targetInputTokens, int requestedOutputTokens, int fillerWords) {}
