package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stream read with the chunk template counts exactly what parsing every chunk counts. */
class ChunkTemplateTest {
    private static String chunk(String fields, String content, String finish) {
        return "{\"id\":\"cmpl-1\",\"object\":\"chat.completion.chunk\"" + fields
                + ",\"choices\":[{\"index\":0,\"delta\":{\"content\":" + content + "},\"finish_reason\":"
                + (finish == null ? "null" : "\"" + finish + "\"") + "}]}";
    }

    /** Every chunk parsed, as a state that never learns a template would: each event alone in a fresh state. */
    private static int[] parsedOneByOne(List<String> events) {
        int chunks = 0, tokens = 0;
        for (String e : events) {
            StreamState fresh = new StreamState();
            fresh.onEvent(e, 0);
            chunks += fresh.chunks;
            tokens += fresh.countedTokens;
        }
        return new int[] {chunks, tokens};
    }

    private static StreamState read(List<String> events) {
        StreamState s = new StreamState();
        long t = 0;
        for (String e : events) s.onEvent(e, t += 1000);
        return s;
    }

    @Test
    void plainChunksAfterTheFirstAreCountedWithoutParsingAndTheSame() {
        List<String> events = new ArrayList<>();
        events.add(chunk("", "\"\"", null)); // vLLM's role chunk: empty content
        for (int i = 0; i < 50; i++) events.add(chunk("", "\" tok" + i + "\"", null));
        events.add(chunk("", "\"end\"", "length"));
        StreamState s = read(events);
        assertEquals(51, s.chunks);
        assertTrue(s.finished, "the last chunk's finish_reason is seen: it does not match the template");
        assertEquals("cmpl-1", s.responseId);
        assertArrayEquals(new int[] {51, 51}, parsedOneByOne(events));
        long[] times = s.chunkTimes();
        assertEquals(2000, times[0]); // the first content chunk arrived second
    }

    @Test
    void whatTheTemplateCannotVouchForIsParsed() {
        List<String> events = new ArrayList<>();
        events.add(chunk("", "\"a\"", null));
        events.add(chunk("", "\"b\"", null));
        events.add(chunk("", "\"line\\nbreak \\\"quoted\\\"\"", null)); // escapes: parsed, still one chunk
        events.add(chunk("", "\"\"", null)); // empty text: not a content chunk
        events.add(chunk("", "null", null)); // no text at all
        events.add(chunk("", "\"c\"", null));
        // Usage in a chunk (continuous usage stats): parsed, and its count taken.
        events.add(
                "{\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"dd\"},\"finish_reason\":null}],"
                        + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":6}}");
        // A chunk that is not even JSON after the template's prefix: malformed, as parsing says.
        events.add(chunk("", "\"e\"", null).replace("}]}", "}]"));
        StreamState s = read(events);
        assertEquals(5, s.chunks);
        assertEquals(6, s.countedTokens, "the usage chunk carried the tokens usage counted beyond the chunks");
        assertEquals(5, s.usagePrompt);
        assertEquals(dev.headroom.model.ErrorKind.MALFORMED_EVENT, s.errorKind);
    }

    @Test
    void aFieldThatChangesEveryChunkKeepsEveryChunkParsed() {
        // OpenAI's streamed chunks carry an "obfuscation" string that differs each time.
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) events.add(chunk(",\"obfuscation\":\"x" + i + "\"", "\"t\"", null));
        StreamState s = read(events);
        assertEquals(20, s.chunks);
        ChunkTemplate t = new ChunkTemplate();
        t.learn(events.get(0), "content");
        assertFalse(t.matches(events.get(1)));
        assertTrue(t.matches(events.get(0).replace("\"t\"", "\"other\"")));
    }

    @Test
    void anAmbiguousPlaceForTheTextLearnsNothing() {
        ChunkTemplate t = new ChunkTemplate();
        String twice = "{\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"delta\":{\"content\":\"b\"}}]}";
        t.learn(twice, "content");
        assertFalse(t.matches(twice));
        assertFalse(t.matches(twice.replace("\"a\"", "\"c\"")));
    }

    @Test
    void aSessionsAnswerIsKeptExactlyAsStreamedWhetherParsedOrMatchedByTheTemplate() {
        List<String> events = List.of(
                "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
                chunk("", "\"Hello\"", null),
                chunk("", "\" world\"", null), // the template's from here: not parsed
                chunk("", "\", \\\"quoted\\\"\\n\"", null), // escapes: parsed, unescaped
                "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"thinking\"}}]}",
                chunk("", "\" done\"", null),
                chunk("", "\".\"", "stop"),
                "{\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":6}}",
                "[DONE]");
        StreamState kept = new StreamState(true);
        StreamState counted = new StreamState();
        long t = 0;
        for (String e : events) {
            kept.onEvent(e, t += 1000);
            counted.onEvent(e, t);
        }
        // Reasoning is not the answer a conversation resends; the rest is, byte for byte once unescaped.
        assertEquals("Hello world, \"quoted\"\n done.", kept.answer());
        assertEquals(null, counted.answer(), "an independent request keeps no text");
        assertEquals(counted.chunks, kept.chunks, "keeping the text changes no count");
        assertEquals(counted.countedTokens, kept.countedTokens);
    }
}
