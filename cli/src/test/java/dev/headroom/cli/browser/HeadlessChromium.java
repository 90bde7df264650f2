package dev.headroom.cli.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.WebSocket;
import okhttp3.WebSocketListener;

/**
 * A real headless Chromium (Debian's package) driven over the DevTools protocol with OkHttp's WebSocket: open a page,
 * collect console errors and exceptions, evaluate an expression, take a full-page screenshot.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final Path profile;
    private final OkHttpClient http =
            new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(30)).build();
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

    /**
     * The browser's path: $HEADROOM_CHROMIUM, else the first of chromium, chromium-browser, google-chrome on PATH; or
     * null.
     */
    static Path find() {
        String env = System.getenv("HEADROOM_CHROMIUM");
        if (env != null && Files.isExecutable(Path.of(env))) return Path.of(env);
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) return p;
            }
        }
        return null;
    }

    HeadlessChromium(Path binary) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        profile = Files.createTempDirectory("headroom-chromium");
        // The flags the machine notes ask for: no sandbox as root, and no background networking (the network is
        // closed).
        process = new ProcessBuilder(
                        binary.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--user-data-dir=" + profile,
                        "--remote-debugging-port=" + port,
                        "--window-size=1400,1000",
                        "about:blank")
                .redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile())
                .start();
        String wsUrl = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (wsUrl == null && System.nanoTime() < deadline) {
            try (Response r = http.newCall(new Request.Builder()
                            .url("http://127.0.0.1:" + port + "/json/list")
                            .build())
                    .execute()) {
                for (JsonNode t : JSON.readTree(r.body().string())) {
                    if (t.path("type").asText().equals("page"))
                        wsUrl = t.path("webSocketDebuggerUrl").asText();
                }
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        if (wsUrl == null)
            throw new IOException("Chromium did not open its DevTools port; see " + profile.resolve("chromium.log"));
        CompletableFuture<Void> open = new CompletableFuture<>();
        socket = http.newWebSocket(new Request.Builder().url(wsUrl).build(), new WebSocketListener() {
            @Override
            public void onOpen(WebSocket webSocket, Response response) {
                open.complete(null);
            }

            @Override
            public void onMessage(WebSocket webSocket, String text) {
                onEvent(text);
            }

            @Override
            public void onFailure(WebSocket webSocket, Throwable t, Response response) {
                open.completeExceptionally(t);
                pending.values().forEach(f -> f.completeExceptionally(t));
            }
        });
        open.join();
        call("Runtime.enable", null);
        call("Log.enable", null);
        call("Page.enable", null);
    }

    private void onEvent(String text) {
        try {
            JsonNode m = JSON.readTree(text);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                if (f != null) {
                    if (m.has("error"))
                        f.completeExceptionally(new IOException(m.get("error").toString()));
                    else f.complete(m.path("result"));
                }
                return;
            }
            String method = m.path("method").asText();
            JsonNode p = m.path("params");
            switch (method) {
                case "Page.loadEventFired" -> loaded.complete(null);
                case "Runtime.exceptionThrown" ->
                    errors.add("exception: " + p.at("/exceptionDetails/text").asText() + " "
                            + p.at("/exceptionDetails/exception/description").asText());
                case "Runtime.consoleAPICalled" -> {
                    if (p.path("type").asText().equals("error"))
                        errors.add("console.error: " + p.path("args").toString());
                }
                case "Log.entryAdded" -> {
                    if (p.at("/entry/level").asText().equals("error"))
                        errors.add("log: " + p.at("/entry/text").asText() + " "
                                + p.at("/entry/url").asText());
                }
                default -> {}
            }
        } catch (IOException e) {
            errors.add("unreadable DevTools message: " + e.getMessage());
        }
    }

    JsonNode call(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode();
        msg.put("id", id);
        msg.put("method", method);
        if (params != null) msg.set("params", params);
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        socket.send(msg.toString());
        return f.orTimeout(30, TimeUnit.SECONDS).join();
    }

    /** Opens a page and waits for its load event; errors seen from then on are collected. */
    void open(String url) {
        errors.clear();
        loaded = new CompletableFuture<>();
        ObjectNode p = JSON.createObjectNode();
        p.put("url", url);
        call("Page.navigate", p);
        loaded.orTimeout(30, TimeUnit.SECONDS).join();
    }

    /** Evaluates a JavaScript expression in the page (the test's own probe; the report itself has no script). */
    JsonNode evaluate(String expression) {
        ObjectNode p = JSON.createObjectNode();
        p.put("expression", expression);
        p.put("returnByValue", true);
        JsonNode r = call("Runtime.evaluate", p);
        return r.at("/result/value");
    }

    /** A screenshot of the whole page. */
    void screenshot(Path file) throws IOException {
        JsonNode metrics = call("Page.getLayoutMetrics", null);
        int width = (int) Math.ceil(metrics.at("/cssContentSize/width").asDouble(1400));
        int height = (int) Math.ceil(metrics.at("/cssContentSize/height").asDouble(1000));
        ObjectNode device = JSON.createObjectNode();
        device.put("width", Math.max(width, 800));
        device.put("height", Math.min(Math.max(height, 600), 16000));
        device.put("deviceScaleFactor", 1);
        device.put("mobile", false);
        call("Emulation.setDeviceMetricsOverride", device);
        ObjectNode p = JSON.createObjectNode();
        p.put("format", "png");
        JsonNode r = call("Page.captureScreenshot", p);
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(r.path("data").asText()));
    }

    List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() throws IOException {
        socket.close(1000, "done");
        // Chromium's helper processes (zygote, renderers) outlive the browser process and keep writing to the profile.
        var helpers = process.descendants().toList();
        process.destroyForcibly();
        helpers.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(10, TimeUnit.SECONDS);
            for (ProcessHandle h : helpers) h.onExit().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // a helper that will not die leaves its files; the walk below skips what vanishes meanwhile
        }
        http.dispatcher().executorService().shutdown();
        // A file a dying helper removes between the listing and the delete is not an error.
        try (var walk = Files.walk(profile)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
            // the temporary profile is left to the OS's temp cleaning
        }
    }
}
