package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.LengthDistribution;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.SplittableRandom;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientTokenizerTest {

    /** Every byte, then merges t+h, th+e, space+t, space+the (tiktoken ranks). */
    static Path tiktoken(Path dir) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 256; i++)
            b.append(Base64.getEncoder().encodeToString(new byte[] {(byte) i}))
                    .append(' ')
                    .append(i)
                    .append('\n');
        int rank = 256;
        for (String t : new String[] {"th", "the", " t", " the"}) {
            b.append(Base64.getEncoder().encodeToString(t.getBytes()))
                    .append(' ')
                    .append(rank++)
                    .append('\n');
        }
        Path f = dir.resolve("cl100k_base.tiktoken");
        Files.writeString(f, b);
        return f;
    }

    @Test
    void tiktokenRanksMergeByPriority(@TempDir Path dir) throws IOException {
        ClientTokenizer t = ClientTokenizer.load(tiktoken(dir).toString());
        assertEquals(2, t.count("the the"), "'the' and ' the' are one token each");
        assertEquals(3, t.count("xyz"), "no merges: one token per byte");
        assertEquals(2, t.count("é"), "two UTF-8 bytes, unmerged");
        assertEquals(0, t.specialTokens());
    }

    @Test
    void huggingFaceByteLevelBpe(@TempDir Path dir) throws IOException {
        // GPT-2's byte-to-unicode mapping writes a space as 'Ġ'.
        String json = "{\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[\"t h\",\"th e\",\"Ġ t\",\"Ġ the\"]},"
                + "\"pre_tokenizer\":{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"use_regex\":true},"
                + "\"post_processor\":{\"type\":\"TemplateProcessing\","
                + "\"single\":[{\"SpecialToken\":{\"id\":\"<s>\"}}]}}";
        Path f = dir.resolve("tokenizer.json");
        Files.writeString(f, json);
        ClientTokenizer t = ClientTokenizer.load(f.toString());
        assertEquals(2, t.count("the the"));
        assertEquals(1, t.specialTokens());
        // Merges given as pairs (newer tokenizer.json) work the same.
        Files.writeString(
                f,
                json.replace(
                        "[\"t h\",\"th e\",\"Ġ t\",\"Ġ the\"]",
                        "[[\"t\",\"h\"],[\"th\",\"e\"],[\"Ġ\",\"t\"],[\"Ġ\",\"the\"]]"));
        assertEquals(2, ClientTokenizer.load(f.toString()).count("the the"));
    }

    @Test
    void unsupportedOrMissingFilesAreNamed(@TempDir Path dir) throws IOException {
        Path sp = dir.resolve("tokenizer.json");
        Files.writeString(sp, "{\"model\":{\"type\":\"Unigram\"}}");
        var e = assertThrows(IllegalArgumentException.class, () -> ClientTokenizer.load(sp.toString()));
        assertTrue(e.getMessage().contains("byte-level BPE"), e.getMessage());
        var m = assertThrows(
                IllegalArgumentException.class,
                () -> ClientTokenizer.load(dir.resolve("nope.json").toString()));
        assertTrue(m.getMessage().contains("nope.json"), m.getMessage());
    }

    @Test
    void withoutTokenizeTheClientTokenizerCalibratesPromptLengths(@TempDir Path dir) throws IOException {
        ClientTokenizer tok = ClientTokenizer.load(tiktoken(dir).toString());
        var w = new WorkloadSpec(
                new LengthDistribution.Fixed(300), new LengthDistribution.Fixed(8), true, 0, null, null, tok);
        PromptFactory f = new PromptFactory(Api.COMPLETIONS, "m", w, "salt", 1);
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Target closed = new Target(
                URI.create("http://127.0.0.1:" + port),
                Api.COMPLETIONS,
                "m",
                null,
                Map.of(),
                false,
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1));
        f.calibrate(new OkHttpClient(), closed);
        assertTrue(f.inputLength().startsWith("client tokenizer cl100k_base.tiktoken"), f.inputLength());
        String prompt = new ObjectMapper()
                .readTree(f.prepare(3, new SplittableRandom(1)).body())
                .get("prompt")
                .asText();
        // This toy vocabulary spells most filler words byte by byte (≈4.5 tokens a word, varying by word), so the
        // length is hit to within a few words; with a real vocabulary each filler word is one token.
        assertEquals(300, tok.count(prompt), 15.0, "prompt built for 300 tokens");
    }
}
