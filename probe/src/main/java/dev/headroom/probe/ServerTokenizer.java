package dev.headroom.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Counts a prompt's tokens with the server's own tokenizer, in whichever {@code /tokenize} shape the server speaks:
 * vLLM and SGLang ({@code {"prompt"}} or, vLLM, {@code {"messages"}} with the chat template → {@code count} /
 * {@code tokens}), llama.cpp ({@code /apply-template} then {@code {"content", "add_special"}} → {@code tokens}) and
 * TGI ({@code {"inputs"}} → an array, {@code /chat_tokenize} → {@code tokenize_response}). The first shape that
 * answers is kept for the rest of the run.
 */
final class ServerTokenizer {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final MediaType JSON = MediaType.get("application/json");

    /** One way of asking a server for a token count. */
    enum Shape {
        VLLM("vLLM/SGLang"),
        TGI("TGI"),
        LLAMA_CPP("llama.cpp");

        final String label;

        Shape(String label) {
            this.label = label;
        }
    }

    private final OkHttpClient http;
    private final Target target;
    private Shape shape;
    /** Set when a call went unanswered for {@link #CALL_TIMEOUT}: a server that hangs is not asked again. */
    private boolean hung;

    /** Longest a count may take: the server is idle before a run, and a count of a prompt takes milliseconds. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Asking for a count changes nothing on the server, so a call that meets a closed connection is retried; the load
     * client has no read timeout (the run's watchdog has), so each count gets {@link #CALL_TIMEOUT}.
     */
    ServerTokenizer(OkHttpClient http, Target target) {
        this(http, target, CALL_TIMEOUT);
    }

    ServerTokenizer(OkHttpClient http, Target target, Duration callTimeout) {
        this.http = http.newBuilder()
                .retryOnConnectionFailure(true)
                .callTimeout(callTimeout)
                .build();
        this.target = target;
    }

    /** The shape that answered, or null when none has. */
    Shape shape() {
        return shape;
    }

    /**
     * Tokens the server counts for {@code text} sent as one user message (chat) or as the prompt; -1 when no shape
     * answers.
     */
    int count(String text) {
        return count(text, List.of(new ChatMessage("user", text)));
    }

    /** A chat message to count: its role and content. */
    record ChatMessage(String role, String content) {}

    /**
     * Tokens the server counts for {@code messages} as one chat prompt, its chat template applied; -1 when no shape
     * answers or the API is not chat.
     */
    int countChat(List<ChatMessage> messages) {
        if (target.api() != Api.CHAT) return -1;
        return count(null, messages);
    }

    private int count(String text, List<ChatMessage> messages) {
        if (hung) return -1;
        for (Shape s : shape != null ? List.of(shape) : List.of(Shape.values())) {
            int n;
            try {
                n = count(s, text, messages);
            } catch (InterruptedIOException e) {
                hung = true;
                return -1;
            } catch (IOException | RuntimeException e) {
                n = -1;
            }
            if (n > 0) {
                shape = s;
                return n;
            }
        }
        return -1;
    }

    private int count(Shape s, String text, List<ChatMessage> messages) throws IOException {
        boolean chat = target.api() == Api.CHAT;
        return switch (s) {
            case VLLM -> {
                ObjectNode body = MAPPER.createObjectNode();
                body.put("model", target.model());
                if (chat) messages(body, messages);
                else body.put("prompt", text);
                yield tokenCount(post("/tokenize", body));
            }
            case TGI -> {
                ObjectNode body = MAPPER.createObjectNode();
                if (chat) {
                    body.put("model", target.model());
                    messages(body, messages);
                    yield tokenCount(post("/chat_tokenize", body));
                }
                body.put("inputs", text);
                yield tokenCount(post("/tokenize", body));
            }
            case LLAMA_CPP -> {
                String prompt = text;
                if (chat) {
                    ObjectNode t = MAPPER.createObjectNode();
                    messages(t, messages);
                    JsonNode applied = post("/apply-template", t);
                    if (applied == null || !applied.path("prompt").isTextual()) yield -1;
                    prompt = applied.get("prompt").asText();
                }
                ObjectNode body = MAPPER.createObjectNode();
                body.put("content", prompt);
                body.put("add_special", true);
                body.put("parse_special", true);
                yield tokenCount(post("/tokenize", body));
            }
        };
    }

    private static void messages(ObjectNode body, List<ChatMessage> messages) {
        var a = body.putArray("messages");
        for (ChatMessage m : messages) a.addObject().put("role", m.role()).put("content", m.content());
    }

    /** {@code count}, or the length of {@code tokens}, of a bare array, or of {@code tokenize_response}; else -1. */
    static int tokenCount(JsonNode r) {
        if (r == null) return -1;
        if (r.path("count").isInt()) return r.get("count").asInt();
        if (r.path("tokens").isArray()) return r.get("tokens").size();
        if (r.path("tokenize_response").isArray())
            return r.get("tokenize_response").size();
        if (r.isArray()) return r.size();
        return -1;
    }

    private JsonNode post(String path, ObjectNode body) throws IOException {
        Request.Builder rb = new Request.Builder()
                .url(target.url(path))
                .post(RequestBody.create(MAPPER.writeValueAsBytes(body), JSON));
        RequestBodies.authorized(target, rb);
        try (Response r = http.newCall(rb.build()).execute()) {
            if (!r.isSuccessful()) return null;
            return MAPPER.readTree(r.body().string());
        }
    }
}
