package dev.headroom.sim.http;

import dev.headroom.model.ServerFacts.ServerKind;

/** The refusals each imitated server sends, in its own status and body (from each server's source). */
final class ServerErrors {
    private ServerErrors() {}

    /** A request over the context one request gets. */
    static ApiError overContext(ServerKind kind, int prompt, int maxTokens, int context) {
        return switch (kind) {
            case LLAMA_CPP, OLLAMA -> {
                String m = "request (" + prompt + " tokens) exceeds the available context size (" + context
                        + " tokens), try increasing it";
                yield ApiError.raw(
                        400,
                        m,
                        "{\"error\":{\"code\":400,\"message\":" + Json.quote(m)
                                + ",\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":" + prompt
                                + ",\"n_ctx\":" + context + "}}");
            }
            case TGI -> {
                String m = "Input validation error: `inputs` tokens + `max_new_tokens` must be <= " + context
                        + ". Given: " + prompt + " `inputs` tokens and " + maxTokens + " `max_new_tokens`";
                yield ApiError.raw(422, m, "{\"error\":" + Json.quote(m) + ",\"error_type\":\"validation\"}");
            }
            case SGLANG -> {
                String m = "Requested token count exceeds the model's maximum context length of " + context
                        + " tokens. You requested a total of " + (prompt + maxTokens) + " tokens: " + prompt
                        + " tokens from the input messages and " + maxTokens + " tokens for the completion. "
                        + "Please reduce the number of tokens in the input messages or the completion to fit "
                        + "within the limit.";
                yield ApiError.raw(
                        400,
                        m,
                        "{\"object\":\"error\",\"message\":" + Json.quote(m)
                                + ",\"type\":\"BadRequest\",\"param\":null,\"code\":400}");
            }
            case VLLM, UNKNOWN ->
                ApiError.badRequest(
                        "This model's maximum context length is " + context + " tokens. However, you requested "
                                + (prompt + Math.max(maxTokens, 0)) + " tokens (" + prompt + " in the messages, "
                                + Math.max(maxTokens, 0) + " in the completion). Please reduce the length of the "
                                + "messages or completion.",
                        "max_tokens");
        };
    }

    /** The server admits no more requests now. */
    static ApiError overloaded(ServerKind kind, int admitted) {
        return switch (kind) {
            case TGI ->
                ApiError.raw(
                        429,
                        "Model is overloaded",
                        "{\"error\":\"Model is overloaded\",\"error_type\":\"overloaded\"}");
            case OLLAMA ->
                ApiError.raw(
                        503,
                        "server busy, please try again.  maximum pending requests exceeded",
                        "{\"error\":\"server busy, please try again.  maximum pending requests exceeded\"}");
            default ->
                new ApiError(
                        429,
                        "rate_limit_error",
                        "the server's waiting queue is full (" + admitted + " requests); retry later",
                        null,
                        "queue_full");
        };
    }
}
