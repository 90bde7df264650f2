package dev.headroom.distributed;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.RequestRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A worker that answers a share with records it was given, then ends as scripted: properly, by dying (its stream
 * closed without an end), or by stalling (silent, no beats).
 */
final class ScriptedWorker implements AutoCloseable {
    enum Ending {
        END,
        DIE,
        STALL
    }

    private final HttpServer server;
    private final CountDownLatch go = new CountDownLatch(1);
    volatile Job job;
    volatile boolean stopped;

    ScriptedWorker(String token, List<RequestRecord> records, Ending ending) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/clock", ex -> {
            if (authorized(ex, token)) reply(ex, 200, Long.toString(System.nanoTime()));
        });
        server.createContext("/go", ex -> {
            if (!authorized(ex, token)) return;
            ex.getRequestBody().readAllBytes();
            go.countDown();
            reply(ex, 204, "");
        });
        server.createContext("/stop", ex -> {
            if (!authorized(ex, token)) return;
            stopped = true;
            reply(ex, 204, "");
        });
        server.createContext("/run", ex -> {
            if (!authorized(ex, token)) return;
            job = Wire.read(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), Job.class);
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            write(out, Line.readyNow());
            try {
                go.await(10, TimeUnit.SECONDS);
                for (RequestRecord r : records) write(out, Line.of(r));
                switch (ending) {
                    case END ->
                        write(
                                out,
                                Line.ending(new Line.End(
                                        records.size(),
                                        1_000_000_000L,
                                        "m",
                                        "fixed",
                                        "kept",
                                        ClientHealth.Observed.NONE,
                                        null,
                                        null)));
                    case DIE -> {}
                    case STALL -> Thread.sleep(60_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.start();
    }

    private static boolean authorized(HttpExchange ex, String token) throws IOException {
        if (("Bearer " + token).equals(ex.getRequestHeaders().getFirst("Authorization"))) return true;
        reply(ex, 401, "no");
        return false;
    }

    private static void write(OutputStream out, Line line) throws IOException {
        out.write((Wire.write(line) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) ex.getResponseBody().write(b);
        ex.close();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
