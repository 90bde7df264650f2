package dev.headroom.probe;

import com.fasterxml.jackson.databind.node.ObjectNode;
import okhttp3.Request;

/** What every request body and every request to the target carry, in one place. */
final class RequestBodies {
    private RequestBodies() {}

    /**
     * Output-length control and streaming: {@code max_tokens} (and {@code max_completion_tokens} for chat),
     * vLLM's {@code ignore_eos} and {@code min_tokens} so the length is exact, and usage in the stream.
     */
    static void outputAndStreaming(ObjectNode body, Api api, int osl, boolean ignoreEos) {
        if (osl > 0) {
            body.put("max_tokens", osl);
            if (api == Api.CHAT) body.put("max_completion_tokens", osl);
            if (ignoreEos) {
                body.put("ignore_eos", true);
                body.put("min_tokens", osl);
            }
        }
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
    }

    /** Adds the Bearer token and the user's extra headers. */
    static Request.Builder authorized(Target target, Request.Builder rb) {
        if (target.apiKey() != null) rb.header("Authorization", "Bearer " + target.apiKey());
        target.headers().forEach(rb::header);
        return rb;
    }
}
