package dev.headroom.sim.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The behaviours by which real servers differ, as the simulator plays them on the wire. */
class ServerBehaviourTest {
    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

    static SimServer start(ServerBehaviour b) {
        EngineConfig e = EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0);
        return SimServer.start(SimServer.Config.loopback(e).withBehaviour(b));
    }

    private static String post(SimServer s, String path, String json) {
        return "POST " + path + " HTTP/1.1\r\nHost: " + s.baseUri().getAuthority()
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + json.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + json;
    }

    private static final String STREAM =
            "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}],"
                    + "\"max_tokens\":3,\"ignore_eos\":true,\"stream\":true,"
                    + "\"stream_options\":{\"include_usage\":true}}";

    /** Reads one whole chunked response from the socket (up to the terminating chunk). */
    private static String readChunkedResponse(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.UTF_8).endsWith("\r\n0\r\n\r\n")) {
            int c = in.read();
            if (c < 0) throw new IOException("closed mid-response: " + b.toString(StandardCharsets.UTF_8));
            b.write(c);
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    /** Whether the server closed the connection within a second. */
    private static boolean closedSoon(Socket socket) throws IOException {
        socket.setSoTimeout(1000);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Test
    void aServerThatClosesAfterStreamsSendsTheWholeResponseThenClosesWithoutSayingSo() throws IOException {
        for (boolean close : new boolean[] {false, true}) {
            try (SimServer s = start(ServerBehaviour.vllm().withCloseAfterStream(close));
                    Socket socket =
                            new Socket(s.baseUri().getHost(), s.baseUri().getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(post(s, "/v1/chat/completions", STREAM).getBytes(StandardCharsets.UTF_8));
                out.flush();
                String response = readChunkedResponse(socket.getInputStream());
                assertTrue(response.contains("data: [DONE]"), response);
                assertFalse(response.toLowerCase().contains("connection: close"), response);
                assertEquals(close, closedSoon(socket), "closed after the stream: " + close);
            }
        }
    }

    @Test
    void anIdleConnectionIsClosedWhenItsNextRequestComesTooLate() throws IOException, InterruptedException {
        try (SimServer s = start(ServerBehaviour.vllm().withIdleTimeout(Duration.ofMillis(200)));
                Socket socket = new Socket(s.baseUri().getHost(), s.baseUri().getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(post(s, "/v1/chat/completions", STREAM).getBytes(StandardCharsets.UTF_8));
            out.flush();
            readChunkedResponse(socket.getInputStream());
            Thread.sleep(400);
            out.write(post(s, "/v1/chat/completions", STREAM).getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertTrue(closedSoon(socket), "a request on a connection idle past the timeout gets no response");
        }
    }

    @Test
    void usageGoesInItsOwnChunkOrInsideTheLastOneAndSaysWhatTheCacheServed() throws IOException {
        for (ServerBehaviour.Usage place : ServerBehaviour.Usage.values()) {
            try (SimServer s = start(ServerBehaviour.vllm().withUsage(place))) {
                SimClient c = new SimClient(s);
                var lines = c.stream("/v1/chat/completions", STREAM).lines();
                JsonNode usage = null;
                JsonNode carrier = null;
                for (var l : lines) {
                    if (!l.isDone() && l.json().has("usage")) {
                        carrier = l.json();
                        usage = carrier.get("usage");
                    }
                }
                assertTrue(usage != null, place + ": " + lines);
                assertEquals(
                        place == ServerBehaviour.Usage.OWN_CHUNK,
                        carrier.get("choices").isEmpty(),
                        carrier.toString());
                assertTrue(
                        usage.path("prompt_tokens_details")
                                .path("cached_tokens")
                                .isInt(),
                        usage.toString());
            }
        }
    }
}
