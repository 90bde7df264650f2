package dev.headroom.probe;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompts from a file: JSONL with {@code prompt} or {@code messages} (+ optional {@code max_tokens}) per line, or
 * a ShareGPT JSON array ({@code conversations} of {@code from}/{@code value} turns: the first human turn is the
 * prompt, the reply's length (≈ 4 characters per token) the output length). Each entry is also a whole
 * conversation, for sessions: its user turns in order, each with the length of the reply that followed it.
 *
 * @param conversations one per entry, in the same order
 */
public record Dataset(Path file, List<Entry> entries, List<Conversation> conversations) {
    /** Characters per token of a recorded reply, for its length. */
    static final float CHARS_PER_TOKEN = 4f;

    /** A conversation's user messages, and the length in tokens of the reply each got (0: none recorded). */
    public record Conversation(List<String> userTurns, int[] replyTokens) {
        public int turns() {
            return userTurns.size();
        }
    }

    /** One prompt: a chat message list (always; a plain prompt is one user message) and an optional output length. */
    public record Entry(List<Message> messages, int maxTokens) {}

    public record Message(String role, String content) {}

    public static Dataset load(Path file) {
        if (!Files.isRegularFile(file)) throw new BadInputException("{dataset} " + file + ": no such file");
        ObjectMapper json = new ObjectMapper();
        List<Entry> out = new ArrayList<>();
        List<Conversation> conversations = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            in.mark(1 << 16);
            int c;
            do {
                c = in.read();
            } while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xFEFF);
            in.reset();
            if (c == '[') {
                for (JsonNode conv : json.readTree(in)) {
                    Conversation talk = conversation(conv.path("conversations"), "from", "value");
                    if (talk == null) continue;
                    out.add(new Entry(
                            List.of(new Message("user", talk.userTurns().getFirst())), talk.replyTokens()[0]));
                    conversations.add(talk);
                }
            } else {
                String line;
                int n = 0;
                while ((line = in.readLine()) != null) {
                    n++;
                    if (line.isBlank()) continue;
                    JsonNode o = json.readTree(line);
                    Entry e = jsonl(o, file, n);
                    out.add(e);
                    Conversation talk =
                            o.path("messages").isArray() ? conversation(o.path("messages"), "role", "content") : null;
                    conversations.add(
                            talk != null ? talk : new Conversation(List.of(text(e)), new int[] {e.maxTokens()}));
                }
            }
        } catch (JacksonException e) {
            throw new BadInputException(
                    "{dataset} " + file + ": not JSONL or ShareGPT JSON: " + e.getOriginalMessage());
        } catch (CharacterCodingException e) {
            throw new BadInputException("{dataset} " + file + ": " + IoReason.NOT_UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dataset " + file + ": " + IoReason.of(e), e);
        }
        if (out.isEmpty()) throw new BadInputException("{dataset} " + file + " holds no usable prompt");
        return new Dataset(file, List.copyOf(out), List.copyOf(conversations));
    }

    /** An entry's prompt as one text (its messages' contents). */
    private static String text(Entry e) {
        StringBuilder b = new StringBuilder();
        for (Message m : e.messages()) b.append(b.isEmpty() ? "" : "\n").append(m.content());
        return b.toString();
    }

    private static Entry jsonl(JsonNode o, Path file, int line) {
        JsonNode maxNode = o.path("max_tokens");
        if (!maxNode.isMissingNode() && !maxNode.isNull() && !(maxNode.canConvertToInt() && maxNode.asInt() >= 1)) {
            throw new BadInputException("{dataset} " + file + " line " + line
                    + ": max_tokens must be a whole number >= 1 (or left out), got " + maxNode);
        }
        int max = maxNode.asInt(0);
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

    /**
     * The user turns of {@code turns} (ShareGPT's {@code from}/{@code value}, or chat {@code role}/{@code content}),
     * each with the length of the reply that followed it; null when it has no non-blank user turn.
     */
    private static Conversation conversation(JsonNode turns, String who, String what) {
        List<String> users = new ArrayList<>();
        List<Integer> replies = new ArrayList<>();
        for (JsonNode t : turns) {
            String from = t.path(who).asText();
            String value = t.path(what).asText("");
            if (from.equals("human") || from.equals("user")) {
                if (value.isBlank()) continue;
                users.add(value);
                replies.add(0);
            } else if ((from.equals("gpt") || from.equals("assistant")) && !users.isEmpty() && replies.getLast() == 0) {
                replies.set(replies.size() - 1, Math.max(1, Math.round(value.length() / CHARS_PER_TOKEN)));
            }
        }
        if (users.isEmpty()) return null;
        return new Conversation(
                List.copyOf(users), replies.stream().mapToInt(Integer::intValue).toArray());
    }
}
