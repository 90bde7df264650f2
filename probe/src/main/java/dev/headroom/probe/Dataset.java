package dev.headroom.probe;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompts from a file: JSONL with {@code prompt} or {@code messages} (+ optional {@code max_tokens}) per line, or
 * a ShareGPT JSON array ({@code conversations} of {@code from}/{@code value} turns: the first human turn is the
 * prompt, the reply's length (≈ 4 characters per token) the output length).
 */
public record Dataset(Path file, List<Entry> entries) {

    /** One prompt: a chat message list (always; a plain prompt is one user message) and an optional output length. */
    public record Entry(List<Message> messages, int maxTokens) {}

    public record Message(String role, String content) {}

    public static Dataset load(Path file) {
        if (!Files.isRegularFile(file)) throw new BadInputException("{dataset} " + file + ": no such file");
        ObjectMapper json = new ObjectMapper();
        List<Entry> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            in.mark(1 << 16);
            int c;
            do {
                c = in.read();
            } while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xFEFF);
            in.reset();
            if (c == '[') {
                for (JsonNode conv : json.readTree(in)) {
                    Entry e = shareGpt(conv);
                    if (e != null) out.add(e);
                }
            } else {
                String line;
                int n = 0;
                while ((line = in.readLine()) != null) {
                    n++;
                    if (line.isBlank()) continue;
                    out.add(jsonl(json.readTree(line), file, n));
                }
            }
        } catch (JacksonException e) {
            throw new BadInputException(
                    "{dataset} " + file + ": not JSONL or ShareGPT JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dataset " + file + ": " + e.getMessage(), e);
        }
        if (out.isEmpty()) throw new BadInputException("{dataset} " + file + " holds no usable prompt");
        return new Dataset(file, List.copyOf(out));
    }

    private static Entry jsonl(JsonNode o, Path file, int line) {
        int max = o.path("max_tokens").asInt(0);
        if (o.path("prompt").isTextual())
            return new Entry(List.of(new Message("user", o.get("prompt").asText())), max);
        JsonNode messages = o.path("messages");
        if (messages.isArray() && !messages.isEmpty()) {
            List<Message> m = new ArrayList<>();
            for (JsonNode msg : messages)
                m.add(new Message(
                        msg.path("role").asText("user"), msg.path("content").asText("")));
            return new Entry(List.copyOf(m), max);
        }
        throw new BadInputException("{dataset} " + file + " line " + line + ": needs \"prompt\" (a string) or "
                + "\"messages\" (a non-empty array)");
    }

    private static Entry shareGpt(JsonNode conv) {
        JsonNode turns = conv.path("conversations");
        String prompt = null;
        String reply = null;
        for (JsonNode t : turns) {
            String from = t.path("from").asText();
            if (prompt == null && (from.equals("human") || from.equals("user")))
                prompt = t.path("value").asText();
            else if (prompt != null && reply == null && (from.equals("gpt") || from.equals("assistant")))
                reply = t.path("value").asText();
        }
        if (prompt == null || prompt.isBlank()) return null;
        int osl = reply == null ? 0 : Math.max(1, Math.round(reply.length() / 4f));
        return new Entry(List.of(new Message("user", prompt)), osl);
    }
}
