package dev.headroom.distributed;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.IoReason;
import dev.headroom.model.Measurement;
import dev.headroom.probe.Probe;
import dev.headroom.probe.TargetRefusedException;
import dev.headroom.probe.WorkloadSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A long-running process's server that runs the share of a load point a coordinator hands it (docs/distributed.md):
 * {@code GET /clock} (its monotonic clock, for the offset), {@code POST /run} (a {@link Job}; the answer streams
 * {@link Line}s), {@code POST /go} (the agreed start on this worker's clock), {@code POST /stop}. Every call must
 * carry the run's token ({@code Authorization: Bearer}); one run at a time.
 */
public final class Worker implements AutoCloseable {
    /** The environment variable a worker and its coordinator take the run's token from. */
    public static final String TOKEN_ENV = "HEADROOM_WORKER_TOKEN";

    /** How long a prepared share waits for its start before giving up (its coordinator is gone). */
    private static final long START_WAIT_SECONDS = 120;

    private final HttpServer server;
    private final ExecutorService handlers;
    private final ScheduledExecutorService beats;
    private final byte[] token;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile Current current;

    private Worker(HttpServer server, String token) {
        this.server = server;
        this.token = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        // Platform threads: the clock's answer must not wait behind the probe's virtual threads.
        this.handlers = Executors.newCachedThreadPool(
                Thread.ofPlatform().daemon(true).name("worker-http-", 0).factory());
        this.beats = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon(true).name("worker-beat").factory());
        server.setExecutor(handlers);
        server.createContext("/clock", ex -> guarded(ex, () -> clock(ex)));
        server.createContext("/run", ex -> guarded(ex, () -> run(ex)));
        server.createContext("/go", ex -> guarded(ex, () -> go(ex)));
        server.createContext("/stop", ex -> guarded(ex, () -> stop(ex)));
        server.start();
    }

    /** A worker listening on {@code address} (port 0: any free one), accepting only {@code token}. */
    public static Worker start(InetSocketAddress address, String token) {
        if (token == null || token.length() < 16) {
            throw new IllegalArgumentException("a worker needs a run token of 16 characters or more");
        }
        try {
            return new Worker(HttpServer.create(address, 64), token);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
        }
    }

    /**
     * The run token: the first line of {@code file}, or {@value #TOKEN_ENV} when {@code file} is null; null when
     * neither holds one. {@code option} names the file in an error ({@code --token-file}).
     */
    public static String readToken(Path file, String option) {
        if (file == null) return System.getenv(TOKEN_ENV);
        try {
            return Files.readAllLines(file).stream()
                    .findFirst()
                    .map(String::trim)
                    .orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + option + " " + file + ": " + IoReason.of(e), e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The address it listens on, as a base URL. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort();
    }

    @Override
    public void close() {
        Current c = current;
        if (c != null) c.stop();
        server.stop(0);
        beats.shutdownNow();
        handlers.shutdownNow();
    }

    private interface Handler {
        void handle() throws IOException;
    }

    private void guarded(HttpExchange ex, Handler h) throws IOException {
        try (ex) {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth == null || !MessageDigest.isEqual(token, auth.getBytes(StandardCharsets.UTF_8))) {
                reply(ex, 401, "this worker takes only its coordinator's run token\n");
                return;
            }
            h.handle();
        }
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) ex.getResponseBody().write(b);
    }

    private void clock(HttpExchange ex) throws IOException {
        reply(ex, 200, Long.toString(System.nanoTime()));
    }

    private void go(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).trim();
        Current c = current;
        if (c == null) {
            reply(ex, 409, "no run is waiting to start\n");
            return;
        }
        c.start.complete(Long.parseLong(body));
        reply(ex, 204, "");
    }

    private void stop(HttpExchange ex) throws IOException {
        Current c = current;
        if (c != null) c.stop();
        reply(ex, 204, "");
    }

    private void run(HttpExchange ex) throws IOException {
        Job job = Wire.read(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), Job.class);
        if (!busy.compareAndSet(false, true)) {
            reply(ex, 409, "this worker is running another share\n");
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "application/x-ndjson");
        ex.sendResponseHeaders(200, 0);
        Current c =
                new Current(new BufferedWriter(new OutputStreamWriter(ex.getResponseBody(), StandardCharsets.UTF_8)));
        current = c;
        Runnable beating = () -> c.write(Line.beating(c.beats.incrementAndGet()));
        var beat = beats.scheduleAtFixedRate(beating, 1, 1, TimeUnit.SECONDS);
        try {
            c.write(Line.ending(share(job, c)));
            c.drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            beat.cancel(false);
            current = null;
            busy.set(false);
        }
    }

    /** Runs the share, every record written as it ends; how it ended. */
    private Line.End share(Job job, Current c) {
        var point = job.point();
        WorkloadSpec workload = new WorkloadSpec(
                point.workload().inputTokens(),
                point.workload().outputTokens(),
                point.workload().ignoreEos(),
                job.sharedPrefixTokens());
        try {
            Probe probe = new Probe(job.target().toTarget(), job.runSalt());
            Measurement m = probe.measureShare(workload, point, job.share(), job.runSalt(), c, r -> {
                c.records.incrementAndGet();
                c.write(Line.of(r));
            });
            Measurement.Notes n = m.notes();
            return new Line.End(
                    c.records.get(),
                    m.elapsedNanos(),
                    n.model(),
                    n.inputLength(),
                    n.connections(),
                    n.client(),
                    null,
                    null);
        } catch (TargetRefusedException e) {
            return ended(c, e.getMessage(), null);
        } catch (RuntimeException | Error e) {
            return ended(c, null, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Line.End ended(Current c, String refusal, String failure) {
        return new Line.End(c.records.get(), 0, null, null, null, ClientHealth.Observed.NONE, refusal, failure);
    }

    /**
     * The run in progress: its answer's stream, its start, and what stops it. Lines are queued and written by a
     * thread of their own, so a request's thread only hands its record over: encoding it and a slow coordinator never
     * hold up the next request (a closed-loop user waited for both when its thread wrote).
     */
    private static final class Current implements Probe.RunControl {
        private static final Line DRAINED = new Line(null, null, null, null);
        private final BufferedWriter out;
        private final LinkedBlockingQueue<Line> queue = new LinkedBlockingQueue<>();
        private final Thread writer;
        private volatile boolean broken;
        private final CompletableFuture<Long> start = new CompletableFuture<>();
        private final AtomicLong records = new AtomicLong();
        private final AtomicLong beats = new AtomicLong();
        private volatile Runnable stopper;
        private volatile boolean stopAsked;

        Current(BufferedWriter out) {
            this.out = out;
            this.writer = Thread.ofPlatform().daemon(true).name("worker-writer").start(this::writeAll);
        }

        /** Queues one line; it is sent as soon as the writer has sent those before it. */
        void write(Line line) {
            if (!broken) queue.add(line);
        }

        /** Waits until every queued line is written (or the coordinator is gone). */
        void drain() throws InterruptedException {
            queue.add(DRAINED);
            writer.join();
        }

        /** Writes lines as they come, flushing whenever none is waiting; a coordinator that is gone stops the share. */
        private void writeAll() {
            try {
                while (true) {
                    Line line = queue.take();
                    if (line == DRAINED) break;
                    out.write(Wire.write(line));
                    out.write('\n');
                    if (queue.isEmpty()) out.flush();
                }
                out.flush();
            } catch (IOException | UncheckedIOException e) {
                broken = true;
                queue.clear();
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stop() {
            stopAsked = true;
            start.complete(-1L);
            Runnable s = stopper;
            if (s != null) s.run();
        }

        @Override
        public long awaitStart() throws InterruptedException {
            write(Line.readyNow());
            long at;
            try {
                at = start.get(START_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("no start came within " + START_WAIT_SECONDS + " s");
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
            if (at < 0) throw new IllegalStateException("stopped before it started");
            while (System.nanoTime() < at) Thread.sleep(Math.max(0, (at - System.nanoTime()) / 1_000_000));
            return at;
        }

        @Override
        public void started(Runnable stop) {
            stopper = stop;
            if (stopAsked) stop.run();
        }
    }
}
