package dev.headroom.sim.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.headroom.sim.PseudoTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tokenizer endpoints in the dialect {@link ServerBehaviour#tokenize()} names: vLLM's and SGLang's
 * {@code /tokenize}, llama.cpp's {@code /tokenize} and {@code /apply-template}, TGI's {@code /tokenize} and
 * {@code /chat_tokenize}. An endpoint the dialect lacks answers 404, as on the real server; counts always agree
 * with what the generation endpoints put in {@code usage.prompt_tokens}, except where the real server's own
 * endpoints disagree with it (llama.cpp's {@code add_special} adds a BOS the chat template does not have).
 */
final class Tokenizing {
    private Tokenizing() {}

    static HttpHandler tokenize(ServerContext ctx) {
        return endpoint(
                ctx,
                "/tokenize",
                List.of(
                        ServerBehaviour.Tokenize.VLLM,
                        ServerBehaviour.Tokenize.SGLANG,
                        ServerBehaviour.Tokenize.LLAMA_CPP,
                        ServerBehaviour.Tokenize.TGI),
                (ex, root) -> switch (ctx.behaviour.tokenize()) {
                    case VLLM, SGLANG -> openAi(ctx, root);
                    case LLAMA_CPP -> {
                        // llama.cpp reads only "content" (missing: empty) and adds BOS only when asked.
                        String content = root.path("content").asText("");
                        int[] ids = PseudoTokenizer.encode(content);
                        ArrayNode tokens = Json.MAPPER.createArrayNode();
                        if (root.path("add_special").asBoolean(false)) tokens.add(1);
                        for (int id : ids) tokens.add(id);
                        ObjectNode o = Json.MAPPER.createObjectNode();
                        o.set("tokens", tokens);
                        yield o;
                    }
                    case TGI -> {
                        JsonNode inputs = root.get("inputs");
                        if (inputs == null || !inputs.isTextual()) {
                            throw new ApiError(
                                    422,
                                    "invalid_request_error",
                                    "Failed to deserialize the JSON body into "
                                            + "the target type: missing field `inputs`",
                                    "inputs",
                                    null);
                        }
                        yield tgiTokens(PseudoTokenizer.encodeCompletion(inputs.asText()));
                    }
                    case NONE -> throw new IllegalStateException("unreachable");
                });
    }

    /** llama.cpp's {@code /apply-template}: {@code {"messages"}} → {@code {"prompt"}}, the template as text. */
    static HttpHandler applyTemplate(ServerContext ctx) {
        return endpoint(ctx, "/apply-template", List.of(ServerBehaviour.Tokenize.LLAMA_CPP), (ex, root) -> {
            Messages m = messages(root, ctx.behaviour.chatTemplate());
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.put("prompt", PseudoTokenizer.chatTemplate(m.roles, m.contents));
            return o;
        });
    }

    /** TGI's {@code /chat_tokenize}: a chat request → {@code {"tokenize_response": [...], "templated_text"}}. */
    static HttpHandler chatTokenize(ServerContext ctx) {
        return endpoint(ctx, "/chat_tokenize", List.of(ServerBehaviour.Tokenize.TGI), (ex, root) -> {
            Messages m = messages(root, ctx.behaviour.chatTemplate());
            ObjectNode o = Json.MAPPER.createObjectNode();
            o.set("tokenize_response", tgiTokens(PseudoTokenizer.encodeChat(m.roles, m.contents)));
            o.put("templated_text", PseudoTokenizer.chatTemplate(m.roles, m.contents));
            return o;
        });
    }

    /** vLLM's shape: {@code prompt} or {@code messages} → {count, max_model_len, tokens}; SGLang has no messages. */
    private static ObjectNode openAi(ServerContext ctx, JsonNode root) throws ApiError {
        int[] ids;
        if (root.has("messages") && ctx.behaviour.tokenize() == ServerBehaviour.Tokenize.VLLM) {
            Messages m = messages(root, ctx.behaviour.chatTemplate());
            ids = PseudoTokenizer.encodeChat(m.roles, m.contents);
        } else if (root.has("prompt") && root.get("prompt").isTextual()) {
            String prompt = root.get("prompt").asText();
            JsonNode addSpecial = root.get("add_special_tokens");
            ids = addSpecial == null || addSpecial.asBoolean(true)
                    ? PseudoTokenizer.encodeCompletion(prompt)
                    : PseudoTokenizer.encode(prompt);
        } else {
            throw ApiError.badRequest("give either 'prompt' (a string) or 'messages'", "prompt");
        }
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("count", ids.length);
        o.put("max_model_len", ctx.engine.model().maxContext());
        ArrayNode tokens = o.putArray("tokens");
        for (int id : ids) tokens.add(id);
        return o;
    }

    private static ArrayNode tgiTokens(int[] ids) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (int i = 0; i < ids.length; i++) {
            a.addObject().put("id", ids[i]).put("text", "").put("start", i).put("stop", i + 1);
        }
        return a;
    }

    private record Messages(List<String> roles, List<String> contents) {}

    private static Messages messages(JsonNode root, ChatTemplate template) throws ApiError {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw ApiError.badRequest("'messages' must be a non-empty array", "messages");
        }
        List<String> roles = new ArrayList<>();
        List<String> contents = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            roles.add(messages.get(i).path("role").asText("user"));
            contents.add(RequestParser.contentText(messages.get(i).get("content"), "messages[" + i + "]"));
        }
        List<List<String>> t = template.apply(roles, contents);
        return new Messages(t.get(0), t.get(1));
    }

    /** Reads a JSON body and answers what {@code body} makes of it. */
    private interface Body {
        JsonNode answer(HttpExchange ex, JsonNode root) throws ApiError, IOException;
    }

    private static HttpHandler endpoint(
            ServerContext ctx, String path, List<ServerBehaviour.Tokenize> dialects, Body body) {
        return InfoHandlers.guarded(ex -> {
            if (!dialects.contains(ctx.behaviour.tokenize()))
                throw Http.notFound(ex.getRequestURI().getPath());
            InfoHandlers.requirePath(ex, path);
            InfoHandlers.requireMethod(ex, "POST");
            JsonNode root;
            try {
                root = Json.MAPPER.readTree(Http.readBody(ex, ctx.maxBodyBytes));
            } catch (JacksonException e) {
                throw ApiError.badRequest("request body is not valid JSON: " + e.getOriginalMessage(), null);
            }
            if (root == null || !root.isObject()) throw ApiError.badRequest("request body must be a JSON object", null);
            Http.sendJson(ex, 200, Json.MAPPER.writeValueAsString(body.answer(ex, root)));
        });
    }
}
