package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TiktokenFilesTest {
    private MockWebServer server;

    @TempDir
    Path dir;

    private byte[] ranks;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
        ranks = Files.readAllBytes(ClientTokenizerTest.tiktoken(Files.createDirectories(dir.resolve("src"))));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private TiktokenFiles files(String sha256, Optional<Path> tiktokenCache) {
        var enc = new TiktokenFiles.Encoding(
                "cl100k_base",
                server.url("/encodings/cl100k_base.tiktoken").toString(),
                sha256,
                ClientTokenizer.CL100K_PATTERN);
        return new TiktokenFiles(Map.of("cl100k_base", enc), dir.resolve("cache"), tiktokenCache, new OkHttpClient());
    }

    private static String sha(String alg, byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance(alg).digest(b));
    }

    @Test
    void namedEncodingIsDownloadedOnceVerifiedAndCached() throws Exception {
        server.enqueue(
                new MockResponse.Builder().body(new okio.Buffer().write(ranks)).build());
        TiktokenFiles f = files(sha("SHA-256", ranks), Optional.empty());
        ClientTokenizer t = ClientTokenizer.load("cl100k", f);
        assertEquals("cl100k_base", t.name());
        assertEquals(2, t.count("the the"));
        assertTrue(Files.isRegularFile(dir.resolve("cache/cl100k_base.tiktoken")));
        // Second load: from the cache, no request.
        assertEquals(2, ClientTokenizer.load("cl100k_base", f).count("the the"));
        assertEquals(1, server.getRequestCount());
    }

    @Test
    void aFileWithTheWrongHashIsRefusedAndNotCached() throws Exception {
        server.enqueue(new MockResponse.Builder().body("AAAA 0\n").build());
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> ClientTokenizer.load("cl100k", files(sha("SHA-256", ranks), Optional.empty())));
        assertTrue(e.getMessage().contains("SHA-256"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("cache/cl100k_base.tiktoken")));
    }

    @Test
    void tiktokensOwnCacheIsUsedWithoutDownloading() throws Exception {
        Path theirs = Files.createDirectories(dir.resolve("data-gym-cache"));
        String url = server.url("/encodings/cl100k_base.tiktoken").toString();
        Files.write(theirs.resolve(sha("SHA-1", url.getBytes())), ranks);
        assertEquals(
                2,
                ClientTokenizer.load("cl100k", files(sha("SHA-256", ranks), Optional.of(theirs)))
                        .count("the the"));
        assertEquals(0, server.getRequestCount());
    }

    @Test
    void unreachableSourceSaysWhereToPutTheFile() throws Exception {
        server.enqueue(new MockResponse.Builder().code(403).body("no").build());
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> ClientTokenizer.load("cl100k", files(sha("SHA-256", ranks), Optional.empty())));
        assertTrue(
                e.getMessage().contains("HTTP 403") && e.getMessage().contains("cl100k_base.tiktoken"), e.getMessage());
    }

    @Test
    void realEncodingsCarryTiktokensPublishedHashes() {
        assertEquals(
                "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                TiktokenFiles.OPENAI.get("cl100k_base").sha256());
        assertTrue(TiktokenFiles.fromEnvironment().named("o200k").isPresent());
        assertTrue(TiktokenFiles.fromEnvironment().named("tokenizer.json").isEmpty());
    }
}
