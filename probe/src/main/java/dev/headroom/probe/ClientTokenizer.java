package dev.headroom.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client-side byte-level BPE tokenizer, used to hit input lengths when the server has no {@code /tokenize}.
 * Loads a Hugging Face {@code tokenizer.json} with a byte-level BPE model (GPT-2, Llama 3, Qwen, DeepSeek and
 * most current models) or a tiktoken rank file ({@code cl100k_base.tiktoken}, {@code o200k_base.tiktoken}).
 * It counts the tokens of text; a chat template's own tokens are not known to it and are approximated.
 */
public final class ClientTokenizer {
    /** GPT-2's pre-tokenizer, the default of byte-level BPE. */
    static final String GPT2_PATTERN =
            "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
    /** tiktoken's cl100k_base pre-tokenizer (also Llama 3's). */
    static final String CL100K_PATTERN = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
            + "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
    /** tiktoken's o200k_base pre-tokenizer. */
    static final String O200K_PATTERN =
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                    + "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                    + "|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

    private final String name;
    private final Pattern pretokenizer;
    /** Merge priority of a pair of byte sequences (lower merges first), keyed by the concatenated bytes. */
    private final Map<Bytes, Integer> mergeRank;

    private final int specialTokens;

    private ClientTokenizer(String name, Pattern pretokenizer, Map<Bytes, Integer> mergeRank, int specialTokens) {
        this.name = name;
        this.pretokenizer = pretokenizer;
        this.mergeRank = mergeRank;
        this.specialTokens = specialTokens;
    }

    /**
     * Loads a named tiktoken encoding ({@code cl100k}, {@code o200k}: cached or fetched once, hash-checked),
     * a {@code tokenizer.json} or a {@code *.tiktoken} file; the error names the value and what is wrong.
     */
    public static ClientTokenizer load(String spec) {
        return load(spec, TiktokenFiles.fromEnvironment());
    }

    static ClientTokenizer load(String spec, TiktokenFiles tiktokenFiles) {
        var named = tiktokenFiles.named(spec);
        Path file = named.map(tiktokenFiles::resolve).orElse(Path.of(spec));
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("{tokenizer} " + spec + ": no such file; give cl100k, o200k, a "
                    + "tokenizer.json or a .tiktoken rank file");
        }
        try {
            if (named.isPresent())
                return tiktoken(file, named.get().name(), named.get().pattern());
            if (file.toString().endsWith(".tiktoken")) {
                String name = file.getFileName().toString();
                return tiktoken(file, name, name.startsWith("o200k") ? O200K_PATTERN : CL100K_PATTERN);
            }
            return huggingFace(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tokenizer " + file + ": " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    /** Special tokens the tokenizer adds around a prompt (e.g. a beginning-of-sequence token). */
    public int specialTokens() {
        return specialTokens;
    }

    /** Tokens in {@code text}, without special tokens. */
    public int count(String text) {
        int n = 0;
        Matcher m = pretokenizer.matcher(text);
        while (m.find()) n += bpe(m.group().getBytes(StandardCharsets.UTF_8));
        return n;
    }

    /** Byte-pair merging of one pre-token: repeatedly merge the adjacent pair with the lowest rank. */
    private int bpe(byte[] piece) {
        List<byte[]> parts = new ArrayList<>(piece.length);
        for (byte b : piece) parts.add(new byte[] {b});
        while (parts.size() > 1) {
            int best = -1;
            int bestRank = Integer.MAX_VALUE;
            for (int i = 0; i + 1 < parts.size(); i++) {
                Integer r = mergeRank.get(Bytes.concat(parts.get(i), parts.get(i + 1)));
                if (r != null && r < bestRank) {
                    bestRank = r;
                    best = i;
                }
            }
            if (best < 0) break;
            parts.set(best, Bytes.concat(parts.get(best), parts.get(best + 1)).value);
            parts.remove(best + 1);
        }
        return parts.size();
    }

    private static ClientTokenizer tiktoken(Path file, String name, String pattern) throws IOException {
        Map<Bytes, Integer> ranks = new HashMap<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
            lineNo++;
            if (line.isBlank()) continue;
            String[] f = line.trim().split(" ");
            if (f.length != 2)
                throw new BadInputException("{tokenizer} " + file + " line " + lineNo + ": expected 'BASE64 RANK'");
            ranks.put(new Bytes(Base64.getDecoder().decode(f[0])), Integer.parseInt(f[1]));
        }
        return new ClientTokenizer(name, Pattern.compile(pattern), ranks, 0);
    }

    private static ClientTokenizer huggingFace(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        JsonNode model = root.path("model");
        if (!model.path("type").asText("BPE").equals("BPE") || !model.has("merges")) {
            throw new BadInputException("{tokenizer} " + file + ": only byte-level BPE tokenizer.json files are "
                    + "supported (model.type BPE with merges)");
        }
        if (!usesByteLevel(root.path("pre_tokenizer"))) {
            throw new BadInputException("{tokenizer} " + file + ": not a byte-level BPE (no ByteLevel "
                    + "pre-tokenizer); SentencePiece-style tokenizers are not supported");
        }
        Map<Character, Byte> fromUnicode = unicodeToBytes();
        Map<Bytes, Integer> ranks = new HashMap<>();
        int rank = 0;
        for (JsonNode merge : model.get("merges")) {
            String a, b;
            if (merge.isArray()) {
                a = merge.get(0).asText();
                b = merge.get(1).asText();
            } else {
                String[] ab = merge.asText().split(" ", 2);
                a = ab[0];
                b = ab[1];
            }
            ranks.putIfAbsent(new Bytes(decode(a + b, fromUnicode)), rank++);
        }
        String pattern = splitPattern(root.path("pre_tokenizer"));
        int special = root.path("post_processor").toString().contains("\"SpecialToken\"")
                        || root.path("post_processor").toString().contains("bos")
                ? 1
                : 0;
        return new ClientTokenizer(
                file.getFileName().toString(),
                Pattern.compile(pattern == null ? GPT2_PATTERN : pattern),
                ranks,
                special);
    }

    private static boolean usesByteLevel(JsonNode pre) {
        return pre.toString().contains("\"ByteLevel\"");
    }

    /** The regex of a Split pre-tokenizer, if there is one (Llama 3 style); else null for GPT-2's. */
    private static String splitPattern(JsonNode pre) {
        if (pre.path("type").asText().equals("Split"))
            return pre.path("pattern").path("Regex").asText(null);
        for (JsonNode p : pre.path("pretokenizers")) {
            String s = splitPattern(p);
            if (s != null) return s;
        }
        return null;
    }

    /** GPT-2's reversible mapping of bytes to printable characters, inverted. */
    static Map<Character, Byte> unicodeToBytes() {
        Map<Character, Byte> map = new HashMap<>();
        int n = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = printable ? (char) b : (char) (256 + n++);
            map.put(c, (byte) b);
        }
        return map;
    }

    private static byte[] decode(String token, Map<Character, Byte> fromUnicode) {
        byte[] out = new byte[token.length()];
        for (int i = 0; i < token.length(); i++) {
            Byte b = fromUnicode.get(token.charAt(i));
            if (b == null) throw new BadInputException("token '" + token + "' is not byte-level encoded");
            out[i] = b;
        }
        return out;
    }

    /** A byte sequence usable as a map key. */
    private record Bytes(byte[] value) {
        static Bytes concat(byte[] a, byte[] b) {
            byte[] c = new byte[a.length + b.length];
            System.arraycopy(a, 0, c, 0, a.length);
            System.arraycopy(b, 0, c, a.length, b.length);
            return new Bytes(c);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes other && Arrays.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }
    }
}
