package dev.headroom.sim.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.sim.PseudoTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Turns a request body into a {@link GenerationRequest}, or an {@link ApiError} naming what is wrong. */
final class RequestParser {
    private final String servedModel;
    private final ChatTemplate template;

    RequestParser(String servedModel, ChatTemplate template) {
        this.servedModel = servedModel;
        this.template = template;
    }

    GenerationRequest parse(byte[] body, boolean chat) throws ApiError {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw ApiError.badRequest("request body is not valid JSON: " + e.getOriginalMessage(), null);
        } catch (IOException e) {
            throw ApiError.badRequest("cannot read request body", null);
        }
        if (root == null || !root.isObject()) throw ApiError.badRequest("request body must be a JSON object", null);

        JsonNode model = root.get("model");
        if (model == null || !model.isTextual())
            throw ApiError.badRequest("'model' is required and must be a string", "model");
        if (!model.asText().equals(servedModel)) {
            throw new ApiError(
                    404,
                    "invalid_request_error",
                    "The model '" + model.asText() + "' does not exist. This server serves '" + servedModel + "'.",
                    "model",
                    "model_not_found");
        }
        int[] ids = chat ? chatPrompt(root.get("messages")) : completionPrompt(root.get("prompt"));
        int prompt = ids.length;

        JsonNode n = root.get("n");
        if (n != null && !n.isNull() && (!n.canConvertToInt() || n.asInt() != 1)) {
            throw ApiError.badRequest("only n=1 is supported, got " + n, "n");
        }
        Integer maxTokens = optionalInt(root, chat ? "max_completion_tokens" : "max_tokens", 1);
        if (maxTokens == null) maxTokens = optionalInt(root, "max_tokens", 1);
        Integer minTokens = optionalInt(root, "min_tokens", 0);
        boolean ignoreEos = optionalBool(root, "ignore_eos");
        boolean stream = optionalBool(root, "stream");
        boolean includeUsage = false;
        JsonNode so = root.get("stream_options");
        if (so != null && !so.isNull()) {
            if (!so.isObject()) throw ApiError.badRequest("'stream_options' must be an object", "stream_options");
            if (!stream)
                throw ApiError.badRequest("'stream_options' is only allowed when 'stream' is true", "stream_options");
            includeUsage = optionalBool(so, "include_usage");
        }
        int min = minTokens == null ? 0 : minTokens;
        if (maxTokens != null && min > maxTokens) {
            throw ApiError.badRequest(
                    "min_tokens (" + min + ") must be <= max_tokens (" + maxTokens + ")", "min_tokens");
        }
        return new GenerationRequest(chat, servedModel, prompt, maxTokens, min, ignoreEos, stream, includeUsage, ids);
    }

    /** The chat prompt's token ids, template included. */
    private int[] chatPrompt(JsonNode messages) throws ApiError {
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw ApiError.badRequest("'messages' is required and must be a non-empty array", "messages");
        }
        List<String> contents = new ArrayList<>();
        List<String> roles = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String where = "messages[" + i + "]";
            if (!m.isObject()) throw ApiError.badRequest(where + " must be an object", where);
            JsonNode role = m.get("role");
            if (role == null || !role.isTextual())
                throw ApiError.badRequest(where + ".role is required", where + ".role");
            JsonNode content = m.get("content");
            roles.add(role.asText());
            contents.add(contentText(content, where));
        }
        List<List<String>> t = template.apply(roles, contents);
        return PseudoTokenizer.encodeChat(t.get(0), t.get(1));
    }

    /** Message content: a string, or an array of {type: text, text} parts; null is allowed (assistant turns). */
    static String contentText(JsonNode content, String where) throws ApiError {
        if (content == null || content.isNull()) return "";
        if (content.isTextual()) return content.asText();
        if (content.isArray()) {
            StringBuilder b = new StringBuilder();
            for (JsonNode part : content) {
                JsonNode text = part.get("text");
                if (!part.isObject() || text == null || !text.isTextual()) {
                    throw ApiError.badRequest(
                            where + ".content parts must be {\"type\":\"text\",\"text\":...}", where + ".content");
                }
                b.append(text.asText());
            }
            return b.toString();
        }
        throw ApiError.badRequest(where + ".content must be a string or an array of parts", where + ".content");
    }

    /** The completion prompt's token ids: a string's, or the ids as given. */
    private static int[] completionPrompt(JsonNode prompt) throws ApiError {
        if (prompt == null || prompt.isNull()) throw ApiError.badRequest("'prompt' is required", "prompt");
        if (prompt.isTextual()) return PseudoTokenizer.encodeCompletion(prompt.asText());
        if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
            return PseudoTokenizer.encodeCompletion(prompt.get(0).asText());
        }
        if (prompt.isArray() && !prompt.isEmpty() && allInts(prompt)) {
            int[] ids = new int[prompt.size()];
            for (int i = 0; i < ids.length; i++) ids[i] = prompt.get(i).asInt();
            return ids;
        }
        throw ApiError.badRequest(
                "'prompt' must be a string, a one-string array, or an array of token ids "
                        + "(batched prompts are not supported)",
                "prompt");
    }

    private static boolean allInts(JsonNode array) {
        for (JsonNode e : array) if (!e.isInt()) return false;
        return true;
    }

    private static Integer optionalInt(JsonNode root, String field, int min) throws ApiError {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min) {
            throw ApiError.badRequest("'" + field + "' must be an integer >= " + min + ", got " + v, field);
        }
        return v.asInt();
    }

    private static boolean optionalBool(JsonNode root, String field) throws ApiError {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) return false;
        if (!v.isBoolean()) throw ApiError.badRequest("'" + field + "' must be true or false, got " + v, field);
        return v.asBoolean();
    }
}
