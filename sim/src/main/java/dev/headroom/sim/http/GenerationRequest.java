package dev.headroom.sim.http;

/**
 * A validated chat or completion request.
 *
 * @param maxTokens     requested cap on output tokens, or null when the client set none
 * @param minTokens     output tokens to produce before the model may stop on its own
 * @param promptIds     the prompt's token ids (template included), whose KV blocks the prefix cache keys
 */
record GenerationRequest(
        boolean chat,
        String model,
        int promptTokens,
        Integer maxTokens,
        int minTokens,
        boolean ignoreEos,
        boolean stream,
        boolean includeUsage,
        int[] promptIds) {}
