package dev.headroom.sim.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deliberately minimal load client for benchmarking the server: one selector thread, N keep-alive
 * connections, each sending a streaming request, counting {@code data: } events and starting its next
 * request when the chunked body ends. It parses nothing else, so it leaves the CPU to the server it measures.
 */
final class RawSseLoad implements AutoCloseable {
    private static final long DATA = pattern("data: ");
    private static final long END = pattern("\r\n0\r\n\r\n");
    private static final long OK_STATUS = pattern("HTTP/1.1 200");

    private final Selector selector;
    private final byte[] request;
    private final Thread thread;
    private final long endNanos;
    final AtomicLong events = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicInteger open = new AtomicInteger();
    private volatile boolean stop;

    /** Per-connection parse state. */
    private static final class Conn {
        long window;
        long bytesThisResponse;
        final ByteBuffer out;

        Conn(byte[] request) {
            out = ByteBuffer.wrap(request);
        }
    }

    RawSseLoad(URI base, String path, String body, int connections, long endNanos) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nContent-Type: application/json\r\nContent-Length: " + b.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        this.request = new byte[h.length + b.length];
        System.arraycopy(h, 0, request, 0, h.length);
        System.arraycopy(b, 0, request, h.length, b.length);
        this.endNanos = endNanos;
        this.selector = Selector.open();
        for (int i = 0; i < connections; i++) {
            SocketChannel ch = SocketChannel.open(new InetSocketAddress(base.getHost(), base.getPort()));
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.configureBlocking(false);
            Conn c = new Conn(request);
            ch.register(selector, SelectionKey.OP_WRITE, c);
        }
        this.thread = Thread.ofPlatform().name("raw-sse-load").daemon(true).start(this::loop);
    }

    private void loop() {
        ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
        try {
            while (!stop) {
                selector.select(100);
                for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey key = it.next();
                    it.remove();
                    if (!key.isValid()) continue;
                    SocketChannel ch = (SocketChannel) key.channel();
                    Conn c = (Conn) key.attachment();
                    try {
                        if (key.isWritable()) {
                            ch.write(c.out);
                            if (!c.out.hasRemaining()) {
                                key.interestOps(SelectionKey.OP_READ);
                                open.incrementAndGet();
                            }
                        } else if (key.isReadable()) {
                            in.clear();
                            int n = ch.read(in);
                            if (n < 0) {
                                failures.incrementAndGet();
                                open.decrementAndGet();
                                key.cancel();
                                ch.close();
                                continue;
                            }
                            in.flip();
                            scan(key, c, in);
                        }
                    } catch (IOException e) {
                        failures.incrementAndGet();
                        key.cancel();
                        ch.close();
                    }
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private void scan(SelectionKey key, Conn c, ByteBuffer in) {
        long w = c.window;
        long bytes = c.bytesThisResponse;
        while (in.hasRemaining()) {
            w = (w << 8) | (in.get() & 0xFF);
            bytes++;
            if ((w & 0xFFFF_FFFF_FFFFL) == DATA) events.incrementAndGet();
            if (bytes == 12 && w != OK_STATUS) failures.incrementAndGet();
            if ((w & 0xFF_FFFF_FFFF_FFFFL) == END) {
                completed.incrementAndGet();
                open.decrementAndGet();
                bytes = 0;
                w = 0;
                if (System.nanoTime() < endNanos) {
                    c.out.rewind();
                    key.interestOps(SelectionKey.OP_WRITE);
                } else {
                    key.interestOps(0);
                }
            }
        }
        c.window = w;
        c.bytesThisResponse = bytes;
    }

    private static long pattern(String s) {
        long p = 0;
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        for (int i = Math.max(0, b.length - 8); i < b.length; i++) p = (p << 8) | (b[i] & 0xFF);
        return p;
    }

    @Override
    public void close() throws IOException {
        stop = true;
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SelectionKey k : selector.keys()) k.channel().close();
        selector.close();
    }
}
