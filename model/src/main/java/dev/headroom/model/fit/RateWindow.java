package dev.headroom.model.fit;

import dev.headroom.model.BadInputException;

/**
 * A rate counted over part of a run, as a source's steady state: from the moment {@code firstTokens} requests have
 * their first token to the moment {@code finished} requests have ended, tokens counted as they arrive (the ML.ENERGY
 * benchmark's window: the batch is full from the first, and the drain of the last requests is left out).
 */
public record RateWindow(int firstTokens, int finished) {
    public RateWindow {
        if (firstTokens < 1 || finished < 1) {
            throw new BadInputException(
                    "a rate window needs first_tokens >= 1 and finished >= 1, got " + firstTokens + " and " + finished);
        }
    }
}
