package dev.headroom.distributed;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Share;
import dev.headroom.model.WorkerRun;
import dev.headroom.probe.TargetRefusedException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * A {@link Measurer} that runs each load point on several workers (docs/distributed.md): it measures every worker's
 * clock offset, hands each its {@link Share}, starts them all at one instant of its own clock (each told the instant
 * on its clock), hands every record they stream back to the sink as it comes — so files, histograms and percentiles
 * are made from the merged raw records, as one process makes them — judges the point's stop rule on the merged stream,
 * and measures the offsets again after. A worker that dies, stalls or fails is named and its records so far kept; the
 * point is then degraded ({@link WorkerRun#degraded}).
 */
public final class Coordinator implements Measurer, AutoCloseable {
    private static final MediaType JSON = MediaType.get("application/json");
    /** A worker silent this long (it beats every second) has stalled. */
    static final Duration STALL = Duration.ofSeconds(10);
    /** How long the workers may take to prepare their shares. */
    private static final Duration PREPARE = Duration.ofMinutes(10);
    /** Time from the last worker's readiness to the agreed start: enough for every start to arrive. */
    private static final long START_MARGIN_NANOS = 200_000_000;

    private final List<String> workers;
    private final String token;
    private final TargetSpec target;
    private final int sharedPrefixTokens;
    private final String salt;
    private final OkHttpClient http;
    private final Duration stall;
    private final AtomicInteger runs = new AtomicInteger();
    private AutoCloseable owned;

    /**
     * @param workers            the workers' base URLs
     * @param token              the run token they accept
     * @param target             the server they send to
     * @param sharedPrefixTokens filler tokens common to every prompt (0: none)
     * @param salt               what makes the command's prompts its own (each point adds its number)
     */
    public Coordinator(List<String> workers, String token, TargetSpec target, int sharedPrefixTokens, String salt) {
        this(workers, token, target, sharedPrefixTokens, salt, STALL);
    }

    /** As above, a worker counted as stalled after {@code stall} of silence (a test's shorter one). */
    Coordinator(
            List<String> workers,
            String token,
            TargetSpec target,
            int sharedPrefixTokens,
            String salt,
            Duration stall) {
        if (workers.isEmpty()) throw new IllegalArgumentException("a coordinator needs workers");
        this.workers = List.copyOf(workers);
        this.token = token;
        this.target = target;
        this.sharedPrefixTokens = sharedPrefixTokens;
        this.salt = salt;
        this.stall = stall;
        this.http = new OkHttpClient.Builder()
                .readTimeout(stall)
                .callTimeout(Duration.ZERO)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** This coordinator, stopping {@code resource} (its local workers) when it is closed. */
    public Coordinator owning(AutoCloseable resource) {
        this.owned = resource;
        return this;
    }

    /** How many workers share each point. */
    public int size() {
        return workers.size();
    }

    @Override
    public void close() {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                // the workers are being stopped anyway
            }
        }
    }

    @Override
    public Measurement measure(MeasurementRequest point, Consumer<RequestRecord> sink) {
        String runSalt = salt + "/" + runs.getAndIncrement();
        Merge merge = new Merge(point, sink);
        List<WorkerShare> shares = new ArrayList<>();
        int n = sharing(point);
        for (int k = 0; k < n; k++) {
            Job job = new Job(target, point, new Share(k, n), runSalt, sharedPrefixTokens);
            shares.add(new WorkerShare(k, workers.get(k), job, merge));
        }
        for (WorkerShare s : shares) s.before();
        for (WorkerShare s : shares)
            s.reader = Thread.ofPlatform()
                    .daemon(true)
                    .name("coordinator-" + s.index)
                    .start(s::read);
        try {
            for (WorkerShare s : shares) s.ready.await(PREPARE.toSeconds(), TimeUnit.SECONDS);
            long t0 = System.nanoTime() + START_MARGIN_NANOS;
            long epochMicros = System.currentTimeMillis() * 1000 + (t0 - System.nanoTime()) / 1000;
            merge.onStop = () -> shares.forEach(WorkerShare::stop);
            for (WorkerShare s : shares) {
                if (s.isReady) s.go(t0);
                else if (s.problem == null) {
                    s.problem = "was not ready within " + PREPARE.toMinutes() + " min";
                    s.stop(); // its share ends unstarted, and its stream with it
                }
            }
            for (WorkerShare s : shares) s.reader.join();
            for (WorkerShare s : shares) s.after();
            return merged(point, shares, runSalt, epochMicros);
        } catch (InterruptedException e) {
            shares.forEach(WorkerShare::stop);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("coordinator interrupted", e);
        }
    }

    /** How many workers share {@code point}: all, but no more than a closed loop's users (each needs one). */
    int sharing(MeasurementRequest point) {
        return point.load() instanceof LoadModel.Closed c ? Math.min(workers.size(), c.concurrency()) : workers.size();
    }

    private Measurement merged(MeasurementRequest point, List<WorkerShare> shares, String runSalt, long epochMicros) {
        List<WorkerRun> runs = new ArrayList<>();
        long elapsed = 0;
        long records = 0;
        Line.End first = null;
        ClientHealth.Observed busiest = ClientHealth.Observed.NONE;
        String refusal = null;
        for (WorkerShare s : shares) {
            Line.End e = s.end;
            records += s.records;
            if (e != null) {
                elapsed = Math.max(elapsed, e.elapsedNanos());
                if (e.refusal() != null && refusal == null) refusal = e.refusal();
                if (e.failure() != null && s.problem == null) s.problem = "failed: " + e.failure();
                if (e.model() != null && first == null) first = e;
                if (e.client() != null && !(e.client().cpuUtil() <= busiest.cpuUtil())) busiest = e.client();
            }
            runs.add(s.report());
        }
        if (refusal != null) throw new TargetRefusedException(refusal, (int) records);
        if (first == null) {
            throw new UncheckedIOException(new IOException("no worker ran its share: "
                    + runs.stream()
                            .map(r -> "worker " + r.worker() + " " + r.problem())
                            .toList()));
        }
        return new Measurement(
                point,
                List.of(),
                elapsed,
                false,
                point.seed(),
                new Measurement.Notes(
                        first.model(), first.inputLength(), runSalt, first.connections(), epochMicros, busiest, runs));
    }

    /** The merged stream: every record to the sink, the point's stop rule judged on all of them. */
    private static final class Merge {
        private final MeasurementRequest point;
        private final Consumer<RequestRecord> sink;
        private final List<RequestRecord> measured = new ArrayList<>();
        private volatile Runnable onStop = () -> {};
        private boolean stopped;

        Merge(MeasurementRequest point, Consumer<RequestRecord> sink) {
            this.point = point;
            this.sink = sink;
        }

        void accept(RequestRecord r) {
            sink.accept(r);
            var rule = point.stopEarly();
            if (rule == null || r.warmup()) return;
            boolean stop;
            synchronized (measured) {
                if (stopped) return;
                measured.add(rule.needsChunkTimes() ? r : r.withoutChunkTimes());
                stop = measured.size() % MeasurementRequest.StopRule.CHECK_EVERY == 0
                        && rule.enough(List.copyOf(measured));
                if (stop) stopped = true;
            }
            if (stop) onStop.run(); // conclusive: no new sends anywhere, those in flight finish
        }
    }

    /** One worker's part of the point, as the coordinator follows it. */
    private final class WorkerShare {
        final int index;
        final String url;
        final Job job;
        final Merge merge;
        final CountDownLatch ready = new CountDownLatch(1);
        volatile boolean isReady;
        volatile String problem;
        volatile Line.End end;
        volatile long records;
        ClockSync.Offset before;
        ClockSync.Offset after;
        Thread reader;

        WorkerShare(int index, String url, Job job, Merge merge) {
            this.index = index;
            this.url = url;
            this.job = job;
            this.merge = merge;
        }

        void before() {
            try {
                before = ClockSync.measure(http, url, token);
            } catch (IOException | RuntimeException e) {
                problem = "could not be reached: " + e.getMessage();
            }
        }

        void after() {
            if (before == null || problem != null && end == null) return;
            try {
                after = ClockSync.measure(http, url, token);
            } catch (IOException | RuntimeException e) {
                // gone after its share: its offset after is unknown
            }
        }

        /** Reads the worker's answer to its share until its end, or until it dies or stalls. */
        void read() {
            if (problem != null) {
                ready.countDown();
                return;
            }
            Request req = post("/run", Wire.write(job));
            try (Response r = http.newCall(req).execute()) {
                if (r.code() != 200) {
                    problem = "refused its share: HTTP " + r.code() + " "
                            + r.body().string().trim();
                    return;
                }
                BufferedSource in = r.body().source();
                String text;
                while ((text = in.readUtf8Line()) != null) {
                    Line line = Wire.read(text, Line.class);
                    if (line.record() != null) {
                        records++;
                        merge.accept(line.record());
                    } else if (line.ready() != null) {
                        isReady = true;
                        ready.countDown();
                    } else if (line.end() != null) {
                        end = line.end();
                    }
                }
                if (end == null) problem = "died mid-run: its stream ended after " + records + " records";
            } catch (InterruptedIOException e) {
                problem = "stalled: nothing for " + stall.toMillis() / 1000.0 + " s after " + records + " records";
                stop();
            } catch (IOException | UncheckedIOException e) {
                problem = "died mid-run after " + records + " records (" + e.getMessage() + ")";
            } finally {
                ready.countDown();
            }
        }

        void go(long t0) {
            try (Response r = http.newCall(post("/go", Long.toString(before.onWorker(t0))))
                    .execute()) {
                if (r.code() != 204) problem = "did not take its start: HTTP " + r.code();
            } catch (IOException e) {
                problem = "did not take its start: " + e.getMessage();
            }
        }

        void stop() {
            try (Response r = http.newCall(post("/stop", "")).execute()) {
                r.body().close();
            } catch (IOException e) {
                // a worker that cannot be told to stop is already gone
            }
        }

        private Request post(String path, String body) {
            return new Request.Builder()
                    .url(url + path)
                    .header("Authorization", "Bearer " + token)
                    .post(RequestBody.create(body, JSON))
                    .build();
        }

        WorkerRun report() {
            double drift = before != null && after != null ? (after.nanos() - before.nanos()) / 1e6 : Double.NaN;
            return new WorkerRun(
                    index,
                    url,
                    records,
                    before == null ? Double.NaN : before.ms(),
                    before == null ? Double.NaN : before.uncertaintyMs(),
                    drift,
                    end == null || end.client() == null ? ClientHealth.Observed.NONE : end.client(),
                    problem);
        }
    }
}
