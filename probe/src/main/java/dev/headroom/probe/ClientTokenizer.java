package dev.headroom.probe;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.GptBytePairEncodingParams;
import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * A client-side tokenizer, used to hit input lengths when the server has no {@code /tokenize}: a named tiktoken
 * encoding ({@code cl100k}, {@code o200k}, bundled with jtokkit, no download), a tiktoken rank file
 * ({@code *.tiktoken}, through jtokkit), or a Hugging Face {@code tokenizer.json} of any model type (BPE,
 * WordPiece, Unigram, WordLevel, with its normalizer and pre-tokenizer, through DJL's binding of Hugging Face's
 * tokenizers, whose native library is in its jar). It counts the tokens of text; a chat template's own tokens are
 * not known to it and are approximated.
 */
public final class ClientTokenizer {
    /** tiktoken's cl100k_base pre-tokenizer (also Llama 3's), for a rank file named cl100k*. */
    static final String CL100K_PATTERN = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
            + "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
    /** tiktoken's o200k_base pre-tokenizer, for a rank file named o200k*. */
    static final String O200K_PATTERN =
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                    + "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                    + "|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

    /** The encodings jtokkit bundles, by the names {@code --tokenizer} takes. */
    private static final Map<String, EncodingType> NAMED = Map.of(
            "cl100k", EncodingType.CL100K_BASE,
            "cl100k_base", EncodingType.CL100K_BASE,
            "o200k", EncodingType.O200K_BASE,
            "o200k_base", EncodingType.O200K_BASE);

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final String name;
    private final ToIntFunction<String> counter;
    private final int specialTokens;

    private ClientTokenizer(String name, ToIntFunction<String> counter, int specialTokens) {
        this.name = name;
        this.counter = counter;
        this.specialTokens = specialTokens;
    }

    /**
     * Loads a named tiktoken encoding ({@code cl100k}, {@code o200k}), a {@code *.tiktoken} rank file or a
     * {@code tokenizer.json}; the error names the value and what is wrong.
     */
    public static ClientTokenizer load(String spec) {
        EncodingType named = NAMED.get(spec.trim().toLowerCase(Locale.ROOT));
        if (named != null) {
            Encoding e = REGISTRY.getEncoding(named);
            return new ClientTokenizer(named.getName(), e::countTokensOrdinary, 0);
        }
        Path file = Path.of(spec);
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("{tokenizer} " + spec + ": no such file; give cl100k, o200k, a "
                    + "tokenizer.json or a .tiktoken rank file");
        }
        return file.toString().endsWith(".tiktoken") ? tiktoken(file) : huggingFace(file);
    }

    public String name() {
        return name;
    }

    /** Special tokens the tokenizer adds around a prompt (e.g. a beginning-of-sequence token). */
    public int specialTokens() {
        return specialTokens;
    }

    /** Tokens in {@code text}, without special tokens; text that spells one (e.g. {@code <|endoftext|>}) is text. */
    public int count(String text) {
        return counter.applyAsInt(text);
    }

    private static ClientTokenizer tiktoken(Path file) {
        String name = file.getFileName().toString();
        Map<byte[], Integer> ranks = new HashMap<>();
        int lineNo = 0;
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                lineNo++;
                if (line.isBlank()) continue;
                String[] f = line.trim().split(" ");
                if (f.length != 2) throw new IllegalArgumentException("expected 'BASE64 RANK'");
                ranks.put(Base64.getDecoder().decode(f[0]), Integer.parseInt(f[1]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read tokenizer " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) { // a bad base64 or rank too
            throw new BadInputException("{tokenizer} " + file + " line " + lineNo + ": expected 'BASE64 RANK'");
        }
        Pattern pattern = Pattern.compile(name.startsWith("o200k") ? O200K_PATTERN : CL100K_PATTERN);
        Encoding e;
        synchronized (REGISTRY) {
            String key = "file:" + file.toAbsolutePath() + "#" + ranks.size();
            e = REGISTRY.getEncoding(key)
                    .orElseGet(() -> REGISTRY.registerGptBytePairEncoding(
                                    new GptBytePairEncodingParams(key, pattern, ranks, Map.of()))
                            .getEncoding(key)
                            .orElseThrow());
        }
        return new ClientTokenizer(name, e::countTokensOrdinary, 0);
    }

    private static ClientTokenizer huggingFace(Path file) {
        // Offline: no telemetry probe of the cloud's metadata address, the CPU library bundled in the jar.
        System.setProperty("ai.djl.offline", "true");
        Map<String, String> options = Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false");
        HuggingFaceTokenizer t;
        try {
            t = HuggingFaceTokenizer.newInstance(file, options);
        } catch (IOException | RuntimeException e) {
            throw new BadInputException("{tokenizer} " + file + ": not a tokenizer.json Hugging Face's tokenizers "
                    + "can load (" + firstLine(e.getMessage()) + ")");
        }
        String sample = "hello";
        int special = t.encode(sample, true, false).getIds().length
                - t.encode(sample, false, false).getIds().length;
        return new ClientTokenizer(
                file.getFileName().toString(),
                text -> t.encode(text, false, false).getIds().length,
                Math.max(0, special));
    }

    private static String firstLine(String message) {
        if (message == null) return "unreadable";
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
