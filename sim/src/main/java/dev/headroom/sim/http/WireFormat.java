package dev.headroom.sim.http;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of one response, as vLLM writes them: SSE events for chat ({@code chat.completion.chunk}, role first)
 * or completions ({@code text_completion}), a usage event when asked, {@code [DONE]}; or one JSON body when not
 * streaming. The constant parts of every event are built once per response so the per-token path only
 * concatenates.
 */
final class WireFormat {
    private final boolean chat;
    private final String id;
    private final long created;
    private final String model;
    private final String head;

    WireFormat(boolean chat, String id, long created, String model) {
        this.chat = chat;
        this.id = id;
        this.created = created;
        this.model = model;
        this.head = "data: {\"id\":" + Json.quote(id) + ",\"object\":\""
                + (chat ? "chat.completion.chunk" : "text_completion") + "\",\"created\":" + created
                + ",\"model\":" + Json.quote(model) + ",\"choices\":";
    }

    byte[] roleEvent() {
        return bytes(head + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
                + "\"finish_reason\":null}]}\n\n");
    }

    /** An event carrying one token; the last one also carries its finish reason (as vLLM does). */
    byte[] tokenEvent(String text, String finishReason) {
        return tokenEvent(text, finishReason, null);
    }

    /**
     * As {@link #tokenEvent(String, String)}, with {@code usage} (JSON, or null) inside it, as TGI sends the last one.
     */
    byte[] tokenEvent(String text, String finishReason, String usage) {
        String fr = finishReason == null ? "null" : "\"" + finishReason + "\"";
        String choice = chat
                ? "[{\"index\":0,\"delta\":{\"content\":" + Json.quote(text) + "},\"logprobs\":null,\"finish_reason\":"
                        + fr
                : "[{\"index\":0,\"text\":" + Json.quote(text) + ",\"logprobs\":null,\"finish_reason\":" + fr;
        String stop = finishReason == null ? "" : ",\"stop_reason\":null";
        return bytes(head + choice + stop + "}]" + (usage == null ? "" : ",\"usage\":" + usage) + "}\n\n");
    }

    /** The finish event of an empty completion. */
    byte[] emptyFinishEvent() {
        return tokenEvent("", "stop");
    }

    byte[] usageEvent(String usage) {
        return bytes(head + "[],\"usage\":" + usage + "}\n\n");
    }

    /** A deliberately broken event, for the malformed-chunk fault. */
    byte[] malformedEvent() {
        return bytes(head + "[{\"index\":0,\"delta\":{\"content\": \"\u0000\n\n");
    }

    static byte[] doneEvent() {
        return DONE;
    }

    /** A whole non-streaming response body. */
    String body(String text, String finishReason, String usage) {
        String choice = chat
                ? "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":" + Json.quote(text)
                        + "},\"logprobs\":null,\"finish_reason\":\"" + finishReason + "\",\"stop_reason\":null}"
                : "{\"index\":0,\"text\":" + Json.quote(text) + ",\"logprobs\":null,\"finish_reason\":\"" + finishReason
                        + "\",\"stop_reason\":null}";
        return "{\"id\":" + Json.quote(id) + ",\"object\":\"" + (chat ? "chat.completion" : "text_completion")
                + "\",\"created\":" + created + ",\"model\":" + Json.quote(model) + ",\"choices\":[" + choice
                + "],\"usage\":" + usage + "}";
    }

    /** The usage object, with the prompt tokens served from the prefix cache as OpenAI reports them. */
    static String usage(int prompt, int completion, int cached) {
        return "{\"prompt_tokens\":" + prompt + ",\"total_tokens\":" + (prompt + completion) + ",\"completion_tokens\":"
                + completion + ",\"prompt_tokens_details\":{\"cached_tokens\":" + cached + "}}";
    }

    private static final byte[] DONE = bytes("data: [DONE]\n\n");

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
