package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Finds the rank file of a named tiktoken encoding ({@code cl100k}, {@code o200k}) the way tiktoken itself does:
 * in a local cache, else downloaded once from OpenAI's public blob store, always checked against tiktoken's
 * published SHA-256 so a wrong or truncated file is never used. Rank files are not bundled (1.7 MB and 3.6 MB).
 */
final class TiktokenFiles {
    /** A named encoding: where tiktoken downloads it from, its SHA-256, and its pre-tokenizer. */
    record Encoding(String name, String url, String sha256, String pattern) {}

    static final Map<String, Encoding> OPENAI = Map.of(
            "cl100k_base",
                    new Encoding(
                            "cl100k_base",
                            "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
                            "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                            ClientTokenizer.CL100K_PATTERN),
            "o200k_base",
                    new Encoding(
                            "o200k_base",
                            "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
                            "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                            ClientTokenizer.O200K_PATTERN));

    private final Map<String, Encoding> encodings;
    private final Path cacheDir;
    private final Optional<Path> tiktokenCacheDir;
    private final OkHttpClient http;

    TiktokenFiles(Map<String, Encoding> encodings, Path cacheDir, Optional<Path> tiktokenCacheDir, OkHttpClient http) {
        this.encodings = encodings;
        this.cacheDir = cacheDir;
        this.tiktokenCacheDir = tiktokenCacheDir;
        this.http = http;
    }

    /**
     * The default: our cache under {@code $HEADROOM_CACHE_DIR} or {@code ~/.cache/headroom}, and tiktoken's own cache.
     */
    static TiktokenFiles fromEnvironment() {
        Map<String, String> env = System.getenv();
        Path ours = env.containsKey("HEADROOM_CACHE_DIR")
                ? Path.of(env.get("HEADROOM_CACHE_DIR"))
                : env.containsKey("XDG_CACHE_HOME")
                        ? Path.of(env.get("XDG_CACHE_HOME"), "headroom")
                        : Path.of(System.getProperty("user.home"), ".cache", "headroom");
        // tiktoken's cache: TIKTOKEN_CACHE_DIR, else DATA_GYM_CACHE_DIR, else $TMPDIR/data-gym-cache.
        Path theirs = env.containsKey("TIKTOKEN_CACHE_DIR")
                ? Path.of(env.get("TIKTOKEN_CACHE_DIR"))
                : env.containsKey("DATA_GYM_CACHE_DIR")
                        ? Path.of(env.get("DATA_GYM_CACHE_DIR"))
                        : Path.of(System.getProperty("java.io.tmpdir"), "data-gym-cache");
        OkHttpClient http =
                new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(60)).build();
        return new TiktokenFiles(OPENAI, ours.resolve("tokenizers"), Optional.of(theirs), http);
    }

    /** The encoding a {@code --tokenizer} value names ({@code cl100k}, {@code cl100k_base}, …), if it names one. */
    Optional<Encoding> named(String spec) {
        Encoding e = encodings.get(spec);
        if (e == null) e = encodings.get(spec + "_base");
        return Optional.ofNullable(e);
    }

    /** A verified local copy of the encoding's rank file: cached, or downloaded now and cached. */
    Path resolve(Encoding e) {
        Path ours = cacheDir.resolve(e.name() + ".tiktoken");
        if (verified(ours, e)) return ours;
        if (tiktokenCacheDir.isPresent()) {
            // tiktoken names a cached file by the SHA-1 of its URL.
            Path theirs = tiktokenCacheDir.get().resolve(hex("SHA-1", e.url().getBytes(StandardCharsets.UTF_8)));
            if (verified(theirs, e)) return theirs;
        }
        byte[] body = download(e, ours);
        String got = hex("SHA-256", body);
        if (!got.equals(e.sha256())) {
            throw new BadInputException("{tokenizer} " + e.name() + ": the file at " + e.url() + " has SHA-256 " + got
                    + ", expected " + e.sha256() + "; not used");
        }
        try {
            Files.createDirectories(cacheDir);
            Path tmp = Files.createTempFile(cacheDir, e.name(), ".part");
            Files.write(tmp, body);
            Files.move(tmp, ours, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return ours;
        } catch (IOException io) {
            throw new BadInputException(
                    "{tokenizer} " + e.name() + ": downloaded, but cannot write " + ours + ": " + io.getMessage());
        }
    }

    private byte[] download(Encoding e, Path wouldBe) {
        String hint = "; download it from " + e.url() + " and give its path ({tokenizer} ./" + e.name()
                + ".tiktoken) or put it at " + wouldBe;
        try (Response r =
                http.newCall(new Request.Builder().url(e.url()).build()).execute()) {
            if (!r.isSuccessful()) {
                throw new BadInputException(
                        "{tokenizer} " + e.name() + ": HTTP " + r.code() + " from " + e.url() + hint);
            }
            return r.body().bytes();
        } catch (IOException io) {
            throw new BadInputException(
                    "{tokenizer} " + e.name() + ": cannot fetch the rank file (" + io.getMessage() + ")" + hint);
        }
    }

    private static boolean verified(Path file, Encoding e) {
        try {
            return Files.isRegularFile(file)
                    && hex("SHA-256", Files.readAllBytes(file)).equals(e.sha256());
        } catch (IOException io) {
            return false;
        }
    }

    private static String hex(String algorithm, byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(data));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible); // every JDK has SHA-1 and SHA-256
        }
    }
}
