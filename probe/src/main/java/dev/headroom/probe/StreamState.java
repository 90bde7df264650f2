package dev.headroom.probe;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.headroom.model.ErrorKind;
import java.io.IOException;
import java.util.Arrays;

/**
 * What one streamed response has shown so far. Fed one SSE event at a time ({@link #onEvent}); tolerant of what
 * real servers send: usage alone in a chunk with empty {@code choices} or inside the last chunk with a choice,
 * the role together with the first token, chunks carrying several tokens (known from cumulative usage when the
 * server streams it), empty-content chunks, and {@code [DONE]}.
 * <p>
 * Parsing pulls only the few fields needed with Jackson's streaming parser, so the per-chunk cost stays small; and
 * most chunks are not parsed at all: see {@link ChunkTemplate}.
 */
final class StreamState {
    private static final JsonFactory JSON = new JsonFactory();

    /** Volatile: the first-token watchdog reads it from its own thread. */
    volatile long firstTokenNanos = -1;

    long[] chunkNanos = new long[64];
    int[] chunkTokens = new int[64];
    int chunks;
    int countedTokens;
    int usagePrompt = -1;
    int usageCompletion = -1;
    /** usage.prompt_tokens_details.cached_tokens: prompt tokens the server served from its prefix cache. */
    int usageCached = -1;

    boolean finished;
    boolean done;
    ErrorKind errorKind;
    Throwable failure;
    String responseId;
    String errorMessage;

    /** The answer's text (content, or a completion's text; not reasoning), when kept: a session resends it. */
    private final StringBuilder answer;

    private final ChunkTemplate template = new ChunkTemplate();
    /** What the last parse saw: how many text fields had text, the last one's name, and usage, finish or error. */
    private int parsedTextFields;

    private String parsedTextKey;
    /** The text field the template's chunks carry. */
    private String templateKey;

    private boolean parsedOther;

    /** A stream whose text is counted, not kept. */
    StreamState() {
        this(false);
    }

    /** @param keepText keep the answer's text ({@link #answer()}) */
    StreamState(boolean keepText) {
        this.answer = keepText ? new StringBuilder() : null;
    }

    /** The answer's text so far, or null when it is not kept. */
    String answer() {
        return answer == null ? null : answer.toString();
    }

    /** Handles one event's data, received at {@code nanos}. */
    void onEvent(String data, long nanos) {
        if (data.equals("[DONE]")) {
            done = true;
            return;
        }
        if (template.matches(data)) {
            addChunk(nanos, 1); // the same chunk as the template, with other (non-empty) text
            if (answer != null && !"reasoning_content".equals(templateKey) && !"reasoning".equals(templateKey)) {
                answer.append(template.text(data));
            }
            return;
        }
        try {
            parse(data, nanos);
        } catch (IOException | RuntimeException e) {
            malformed("event is not valid JSON: " + abbreviate(data));
        }
    }

    private void parse(String data, long nanos) throws IOException {
        parsedTextFields = 0;
        parsedTextKey = null;
        parsedOther = false;
        int textChars = 0;
        boolean sawChoices = false;
        int completionSoFar = -1;
        try (JsonParser p = JSON.createParser(data)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                malformed("event is not a JSON object: " + abbreviate(data));
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "id" -> {
                        if (responseId == null && v == JsonToken.VALUE_STRING) responseId = p.getText();
                    }
                    case "choices" -> {
                        if (v == JsonToken.START_ARRAY) {
                            sawChoices = true;
                            textChars += parseChoices(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                    case "usage" -> {
                        parsedOther = true;
                        if (v == JsonToken.START_OBJECT) completionSoFar = parseUsage(p);
                    }
                    case "error" -> {
                        parsedOther = true;
                        errorKind = ErrorKind.OTHER;
                        errorMessage = "server sent an error event: " + abbreviate(data);
                        p.skipChildren();
                    }
                    default -> p.skipChildren();
                }
            }
        }
        if (textChars > 0) {
            // Tokens in this chunk: from cumulative usage when the server streams it, else one.
            int tokens = completionSoFar > countedTokens ? completionSoFar - countedTokens : 1;
            addChunk(nanos, tokens);
            // One text field, no usage, no finish, no error: later chunks equal to it but for the text are the same.
            if (parsedTextFields == 1 && !parsedOther && errorKind == null && template.learn(data, parsedTextKey)) {
                templateKey = parsedTextKey;
            }
        }
        if (!sawChoices && usageCompletion < 0 && errorKind == null && textChars == 0) {
            // An object with neither choices nor usage is not an OpenAI chunk.
            malformed("event has no choices or usage: " + abbreviate(data));
        }
    }

    /** Returns the number of content characters in the choices (delta.content, text, or reasoning). */
    private int parseChoices(JsonParser p) throws IOException {
        int chars = 0;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "text" -> chars += v == JsonToken.VALUE_STRING ? text(field, p) : 0;
                    case "delta", "message" -> {
                        if (v == JsonToken.START_OBJECT) chars += parseDelta(p);
                        else p.skipChildren();
                    }
                    case "finish_reason" -> {
                        if (v != JsonToken.VALUE_NULL) {
                            finished = true;
                            parsedOther = true;
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }
        return chars;
    }

    private int parseDelta(JsonParser p) throws IOException {
        int chars = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if ((field.equals("content") || field.equals("reasoning_content") || field.equals("reasoning"))
                    && v == JsonToken.VALUE_STRING) {
                chars += text(field, p);
            } else {
                p.skipChildren();
            }
        }
        return chars;
    }

    private int text(String field, JsonParser p) throws IOException {
        int length = p.getTextLength();
        if (answer != null && length > 0 && (field.equals("content") || field.equals("text"))) {
            answer.append(p.getText());
        }
        if (length > 0) {
            parsedTextFields++;
            parsedTextKey = field;
        }
        return length;
    }

    /** Reads a usage object; returns completion_tokens (or -1). */
    private int parseUsage(JsonParser p) throws IOException {
        int completion = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NUMBER_INT && field.equals("prompt_tokens")) usagePrompt = p.getIntValue();
            else if (v == JsonToken.VALUE_NUMBER_INT && field.equals("completion_tokens")) completion = p.getIntValue();
            else if (v == JsonToken.START_OBJECT && field.equals("prompt_tokens_details")) parseCached(p);
            else p.skipChildren();
        }
        if (completion >= 0) usageCompletion = completion;
        return completion;
    }

    private void parseCached(JsonParser p) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NUMBER_INT && field.equals("cached_tokens")) usageCached = p.getIntValue();
            else p.skipChildren();
        }
    }

    private void addChunk(long nanos, int tokens) {
        if (chunks == chunkNanos.length) {
            chunkNanos = Arrays.copyOf(chunkNanos, chunks * 2);
            chunkTokens = Arrays.copyOf(chunkTokens, chunks * 2);
        }
        if (chunks == 0) firstTokenNanos = nanos; // the first chunk: one volatile write, no read per chunk
        chunkNanos[chunks] = nanos;
        chunkTokens[chunks] = tokens;
        chunks++;
        countedTokens += tokens;
    }

    private void malformed(String message) {
        if (errorKind == null) {
            errorKind = ErrorKind.MALFORMED_EVENT;
            errorMessage = message;
        }
    }

    /** Handles a non-streaming JSON body as one chunk carrying the whole output. */
    void onWholeBody(String body, long nanos) {
        parseQuietly(body, nanos);
        if (chunks == 0 && usageCompletion > 0) addChunk(nanos, usageCompletion);
        else if (chunks == 1 && usageCompletion > 1) chunkTokens[0] = usageCompletion;
        done = finished;
    }

    private void parseQuietly(String body, long nanos) {
        try {
            parse(body, nanos);
        } catch (IOException | RuntimeException e) {
            malformed("response is not valid JSON: " + abbreviate(body));
        }
    }

    long[] chunkTimes() {
        return Arrays.copyOf(chunkNanos, chunks);
    }

    int[] tokensPerChunk() {
        return Arrays.copyOf(chunkTokens, chunks);
    }

    static String abbreviate(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= 120 ? one : one.substring(0, 117) + "...";
    }
}
