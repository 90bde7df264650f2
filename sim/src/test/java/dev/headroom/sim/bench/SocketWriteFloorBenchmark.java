package dev.headroom.sim.bench;

import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The floor under the server's emit lag on this machine: how long it takes one thread to write one SSE-sized
 * event (260 bytes) to each of N loopback sockets, with a reader draining them. Every token of an engine step is
 * due at the same instant, so the last of N writes is late by at least this burst time divided by the cores
 * writing. Run with the bench profile; writes {@code sim/target/benchmark-socket-write-floor.json}.
 */
@Tag("benchmark")
class SocketWriteFloorBenchmark {

    @Test
    void burstOfLoopbackWrites() throws Exception {
        StringBuilder json = new StringBuilder("{\"benchmark\":\"socket-write-floor\",\"bursts\":[");
        for (int n : new int[] {64, 256, 1000}) {
            if (n != 64) json.append(',');
            json.append(burst(n));
        }
        json.append("]}");
        System.out.println(json);
        Files.writeString(Path.of("target", "benchmark-socket-write-floor.json"), json + "\n");
    }

    private static String burst(int n) throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
                Selector selector = Selector.open()) {
            List<SocketChannel> writers = new ArrayList<>();
            List<SocketChannel> readers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SocketChannel c = SocketChannel.open(listener.getLocalAddress());
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_READ);
                readers.add(c);
                SocketChannel s = listener.accept();
                s.setOption(StandardSocketOptions.TCP_NODELAY, true);
                writers.add(s);
            }
            Thread drain = Thread.ofPlatform().daemon(true).start(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(1 << 16);
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        selector.select(50);
                        for (var k : selector.selectedKeys()) {
                            b.clear();
                            ((SocketChannel) k.channel()).read(b);
                        }
                        selector.selectedKeys().clear();
                    }
                } catch (Exception e) {
                    // closed at the end
                }
            });
            ByteBuffer event = ByteBuffer.allocateDirect(260);
            long[] bursts = new long[300];
            for (int r = 0; r < bursts.length; r++) {
                long t0 = System.nanoTime();
                for (SocketChannel s : writers) {
                    event.clear();
                    s.write(event);
                }
                bursts[r] = System.nanoTime() - t0;
                Thread.sleep(5);
            }
            drain.interrupt();
            drain.join();
            for (SocketChannel c : writers) c.close();
            for (SocketChannel c : readers) c.close();
            Arrays.sort(bursts);
            long median = bursts[bursts.length / 2];
            return String.format(
                    Locale.ROOT,
                    "{\"sockets\":%d,\"burst_median_us\":%.0f,\"burst_p90_us\":%.0f,\"per_write_us\":%.2f}",
                    n,
                    median / 1e3,
                    bursts[bursts.length * 9 / 10] / 1e3,
                    median / 1e3 / n);
        }
    }
}
