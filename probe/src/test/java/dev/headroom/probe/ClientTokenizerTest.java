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
    void namedEncodingsAreBundledAndCountAsTiktokenDoes() {
        // tiktoken: "hello world" is 2 tokens in both; cl100k splits digits in threes.
        assertEquals(2, ClientTokenizer.load("cl100k").count("hello world"));
        assertEquals(2, ClientTokenizer.load("o200k_base").count("hello world"));
        assertEquals(3, ClientTokenizer.load("cl100k").count("1234567"), "123 456 7");
        assertEquals("o200k_base", ClientTokenizer.load("O200K").name());
        assertEquals(0, ClientTokenizer.load("cl100k").specialTokens());
    }

    /** GPT-2's byte-to-unicode mapping: the printable bytes as themselves, the rest from U+0100 on. */
    private static String byteLevel(int b) {
        boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        int n = 0;
        for (int i = 0; i < b; i++) {
            if (!((i >= '!' && i <= '~') || (i >= 0xA1 && i <= 0xAC) || (i >= 0xAE && i <= 0xFF))) n++;
        }
        return String.valueOf((char) (printable ? b : 256 + n));
    }

    @Test
    void huggingFaceByteLevelBpeWithABeginningOfSequenceToken(@TempDir Path dir) throws IOException {
        var json = new ObjectMapper().createObjectNode();
        var model = json.putObject("model").put("type", "BPE");
        var vocab = model.putObject("vocab");
        for (int b = 0; b < 256; b++) vocab.put(byteLevel(b), b);
        String[] merged = {"th", "the", "Ġt", "Ġthe"};
        for (int k = 0; k < merged.length; k++) vocab.put(merged[k], 256 + k);
        model.putArray("merges").add("t h").add("th e").add("Ġ t").add("Ġ the");
        json.putArray("added_tokens")
                .addObject()
                .put("id", 260)
                .put("content", "<s>")
                .put("special", true)
                .put("single_word", false)
                .put("lstrip", false)
                .put("rstrip", false)
                .put("normalized", false);
        json.putObject("pre_tokenizer")
                .put("type", "ByteLevel")
                .put("add_prefix_space", false)
                .put("trim_offsets", true)
                .put("use_regex", true);
        var post = json.putObject("post_processor").put("type", "TemplateProcessing");
        post.putArray("single")
                .addObject()
                .putObject("SpecialToken")
                .put("id", "<s>")
                .put("type_id", 0);
        ((com.fasterxml.jackson.databind.node.ArrayNode) post.get("single"))
                .addObject()
                .putObject("Sequence")
                .put("id", "A")
                .put("type_id", 0);
        post.putArray("pair").addObject().putObject("Sequence").put("id", "A").put("type_id", 0);
        var bos = post.putObject("special_tokens").putObject("<s>").put("id", "<s>");
        bos.putArray("ids").add(260);
        bos.putArray("tokens").add("<s>");
        Path f = dir.resolve("tokenizer.json");
        Files.writeString(f, json.toString());
        ClientTokenizer t = ClientTokenizer.load(f.toString());
        assertEquals(2, t.count("the the"), "'the' and ' the' are one token each");
        assertEquals(3, t.count("xyz"), "no merges: one token per byte");
        assertEquals(1, t.specialTokens(), "<s> before every prompt");
    }

    @Test
    void huggingFaceTokenizersOfOtherModelTypesLoadToo(@TempDir Path dir) throws IOException {
        // A WordLevel model (no BPE at all) with a whitespace pre-tokenizer and a lowercasing normalizer.
        String json = "{\"model\":{\"type\":\"WordLevel\",\"vocab\":{\"the\":0,\"cat\":1,\"[UNK]\":2},"
                + "\"unk_token\":\"[UNK]\"},\"normalizer\":{\"type\":\"Lowercase\"},"
                + "\"pre_tokenizer\":{\"type\":\"Whitespace\"}}";
        Path f = dir.resolve("tokenizer.json");
        Files.writeString(f, json);
        ClientTokenizer t = ClientTokenizer.load(f.toString());
        assertEquals(4, t.count("The cat THE dog"), "dog is [UNK], still one token");
        assertEquals(0, t.specialTokens());
    }

    @Test
    void unsupportedOrMissingFilesAreNamed(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("tokenizer.json");
        Files.writeString(bad, "{\"model\":{\"type\":\"Nonsense\"}}");
        var e = assertThrows(IllegalArgumentException.class, () -> ClientTokenizer.load(bad.toString()));
        assertTrue(e.getMessage().contains("tokenizer.json") && e.getMessage().contains("tokenizers"), e.getMessage());
        var m = assertThrows(
                IllegalArgumentException.class,
                () -> ClientTokenizer.load(dir.resolve("nope.json").toString()));
        assertTrue(m.getMessage().contains("nope.json"), m.getMessage());
        Path rank = dir.resolve("x.tiktoken");
        Files.writeString(rank, "not-a-rank-line\n");
        var r = assertThrows(IllegalArgumentException.class, () -> ClientTokenizer.load(rank.toString()));
        assertTrue(r.getMessage().contains("line 1"), r.getMessage());
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
