package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/** The server's tokenizer asked before a run: a server that takes the connection and never answers. */
class ServerTokenizerTest {

    @Test
    void aServerThatNeverAnswersIsAskedOnceAndCountsAsNoTokenizer() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        Socket s = silent.accept();
                        accepted.incrementAndGet();
                        synchronized (held) {
                            held.add(s); // read nothing, answer nothing, close nothing
                        }
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            Target target = new Target(
                    URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/"),
                    Api.CHAT,
                    "m",
                    null,
                    Map.of(),
                    false,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(5));
            ServerTokenizer t = new ServerTokenizer(new OkHttpClient(), target, Duration.ofMillis(300));
            assertEquals(-1, t.count("hello world"));
            int afterFirst = accepted.get();
            assertEquals(1, afterFirst, "one shape asked, then the server was taken as hung");
            assertEquals(-1, t.count("hello again"));
            assertEquals(afterFirst, accepted.get(), "a hung server is not asked again");
        } finally {
            synchronized (held) {
                for (Socket s : held) s.close();
            }
        }
    }
}
