package dev.headroom.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.Share;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Measures an OpenAI-compatible streaming endpoint at one load point. Also a {@link Measurer}, so the optimizer
 * can ask it for measurements without knowing it is HTTP. One instance serves every load point of a command: each
 * run gets prompts of its own (the salt and the run's number), and what was learned about the server's connections
 * carries over.
 */
public final class Probe implements Measurer {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Pause after the preflight's streamed response, so a server that closes after it has done so. */
    private static final Duration SETTLE = Duration.ofMillis(100);

    private final Target target;
    private final String salt;
    /** The clock every run is timed on, and its threads: the system's, or a test's. */
    private final Ticker ticker;

    private final AtomicInteger runs = new AtomicInteger();
    private volatile ConnectionPolicy learned;
    /** What the server says about itself, read before the first run (its context bounds every request). */
    private volatile ServerFacts facts;

    /** A probe whose prompts are salted with {@code salt}: the same salt and seed give the same prompt texts. */
    public Probe(Target target, String salt) {
        this(target, salt, Ticker.SYSTEM);
    }

    /** A probe whose runs are timed on {@code ticker} (a test's virtual clock) instead of the system's. */
    Probe(Target target, String salt, Ticker ticker) {
        this.target = target;
        this.salt = salt;
        this.ticker = ticker;
    }

    /** A probe with a random salt: its prompts were never sent before. */
    public Probe(Target target) {
        this(target, randomSalt());
    }

    /** Eight hex digits from a secure random source. */
    public static String randomSalt() {
        return String.format("%08x", new SecureRandom().nextInt());
    }

    public String salt() {
        return salt;
    }

    /**
     * This probe, taking what the server already said about itself ({@link ServerIntrospection#read(Target)} of the
     * same target) instead of asking again before its first run.
     */
    public Probe knowing(ServerFacts facts) {
        this.facts = facts;
        return this;
    }

    /**
     * Runs one load point with {@code workload}'s prompts (which may add a dataset, a trace, a shared prefix or a
     * client tokenizer to the point's own workload); every finished request is also handed to {@code sink} as it
     * ends. The result keeps every record; {@link #measure(MeasurementRequest, Consumer)} keeps none.
     *
     * @throws TargetRefusedException when the run's first requests all failed the same way at once
     * @throws Error                  the error (e.g. {@link OutOfMemoryError}) that stopped the run in one of its
     *                                threads; what {@code sink} was handed before it is all that finished
     */
    public ProbeResult run(WorkloadSpec workload, MeasurementRequest point, Consumer<RequestRecord> sink) {
        return run(workload, point, sink, true, Share.ALL, null, null);
    }

    /** How a coordinator starts and stops a worker's share of a distributed run (docs/distributed.md). */
    public interface RunControl {
        /**
         * Called once the share is prepared (prompts calibrated, connections learnt); blocks until the run may start
         * and returns the {@link System#nanoTime()} that is run time 0 on every worker.
         */
        long awaitStart() throws InterruptedException;

        /** Given, once the share runs, what ends it early: no new sends, those in flight finish. */
        void started(Runnable stop);
    }

    /**
     * Runs {@code share} of {@code point}, its prompts salted with {@code runSalt} (the coordinator's, the same on
     * every worker), started and stopped by {@code control}; keeps no record.
     *
     * @throws TargetRefusedException as {@link #run}
     */
    public Measurement measureShare(
            WorkloadSpec workload,
            MeasurementRequest point,
            Share share,
            String runSalt,
            RunControl control,
            Consumer<RequestRecord> sink) {
        return measurement(point, run(workload, point, sink, false, share, runSalt, control));
    }

    /**
     * Refuses, before any load and before anything is written, a point whose requests cannot fit the context the
     * server says it gives one request (sessions counted as the server counts them): one line, naming the longest
     * request, its length and the server's context with where it was read. Nothing when the server states no context.
     */
    public void checkFits(WorkloadSpec workload, MeasurementRequest point) {
        OkHttpClient http = new OkHttpClient.Builder()
                .connectTimeout(target.connectTimeout())
                .callTimeout(Duration.ofSeconds(10))
                .build();
        try {
            Target resolved = target.model() != null ? target : target.withModel(firstModel(http));
            if (facts == null) facts = ServerIntrospection.read(resolved);
            SessionPrompts conversations = null;
            if (point.sessions() != null) {
                conversations = new SessionPrompts(
                        resolved.api(),
                        resolved.model(),
                        point.sessions(),
                        workload.ignoreEos(),
                        salt + "/check",
                        point.seed(),
                        workload.dataset(),
                        workload.trace());
                conversations.calibrate(http, resolved);
            }
            ContextFit.check(facts, point, workload, conversations);
        } finally {
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }

    private ProbeResult run(
            WorkloadSpec workload,
            MeasurementRequest point,
            Consumer<RequestRecord> sink,
            boolean keep,
            Share share,
            String saltOfRun,
            RunControl control) {
        String runSalt = saltOfRun != null ? saltOfRun : salt + "/" + runs.getAndIncrement();
        ConnectionTracker tracker = new ConnectionTracker(ticker);
        OkHttpClient base = HttpClients.forLoad(target, expectedConnections(point), tracker);
        ConnectionPolicy connections = new ConnectionPolicy(
                base, HttpClients.maxIdle(expectedConnections(point)), target.keepAlive(), learned);
        var watchdog = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon(true).name("probe-watchdog").factory());
        // Two timeouts per request are scheduled and almost always cancelled: drop them at once, or a long run
        // at a high rate would queue millions of dead tasks.
        watchdog.setRemoveOnCancelPolicy(true);
        try (ClientMonitor monitor = new ClientMonitor()) {
            Target resolved = target.model() != null ? target : target.withModel(firstModel(connections.client()));
            RequestSource prompts = workload.dataset() != null
                    ? new DatasetSource(
                            resolved.api(), resolved.model(), workload.dataset(), workload, runSalt, point.seed())
                    : new PromptFactory(resolved.api(), resolved.model(), workload, runSalt, point.seed());
            prompts.calibrate(connections.client(), resolved);
            SessionPrompts conversations = point.sessions() == null
                    ? null
                    : new SessionPrompts(
                            resolved.api(),
                            resolved.model(),
                            point.sessions(),
                            workload.ignoreEos(),
                            runSalt,
                            point.seed(),
                            workload.dataset(),
                            workload.trace());
            if (conversations != null) conversations.calibrate(connections.client(), resolved);
            // Before any load: the workload must fit the context the server gives one request.
            if (facts == null) facts = ServerIntrospection.read(resolved);
            ContextFit.check(facts, point, workload, conversations);
            if (connections.needsLearning()) {
                preflight(
                        new RequestExecutor(connections, resolved, new RunClock(ticker), watchdog),
                        prompts,
                        connections,
                        resolved);
            }
            learned = connections;
            // The run's clock starts after the preflight: the schedule's time 0 is the first send (a distributed
            // run's is the one its coordinator set for every worker).
            RunClock clock = control == null ? new RunClock(ticker) : new RunClock(ticker, control.awaitStart());
            RequestExecutor executor = new RequestExecutor(connections, resolved, clock, watchdog);
            LoadDriver driver =
                    new LoadDriver(executor, prompts, conversations, point, share, clock, sink, monitor::restart, keep);
            if (control != null) control.started(driver::stop);
            List<RequestRecord> records = driver.run();
            double elapsed = clock.now() / 1e9;
            if (driver.fatal() != null) throw driver.fatal();
            if (driver.refusal() != null) {
                throw new TargetRefusedException(
                        resolved.url(resolved.api().path()) + ": " + driver.refusal(), (int) driver.finished());
            }
            return new ProbeResult(
                    resolved,
                    point,
                    workload,
                    conversations != null ? conversations.inputLength() : prompts.inputLength(),
                    records,
                    driver.peakInFlight(),
                    clock.originEpochMicros(),
                    elapsed,
                    monitor.observed(),
                    runSalt,
                    connections.describe());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("probe interrupted", e);
        } finally {
            watchdog.shutdownNow();
            base.dispatcher().executorService().shutdown();
            connections.close();
        }
    }

    /**
     * Before the run: one streamed one-token request of the run's own (its usage also calibrates lengths), then,
     * once the server has had time to close, an idempotent GET on the same pool. If that GET fails on the
     * kept-alive connection without a response, the server closes after each streamed response, and every request
     * of the run gets a connection of its own.
     */
    private void preflight(
            RequestExecutor executor, RequestSource prompts, ConnectionPolicy connections, Target resolved)
            throws InterruptedException {
        PreparedRequest req = prompts.calibrationRequest();
        // On a connection of its own: one left by the calls before it may already be closed.
        connections.client().connectionPool().evictAll();
        RequestRecord first = executor.execute(req, 0, 0, true);
        if (!first.succeeded()) return; // learn nothing from a failure; the run measures it
        prompts.observe(req, first);
        Thread.sleep(SETTLE);
        CallTrace trace = new CallTrace();
        Request.Builder rb =
                new Request.Builder().url(resolved.url("/v1/models")).get().tag(CallTrace.class, trace);
        RequestBodies.authorized(resolved, rb);
        try (Response r = connections.client().newCall(rb.build()).execute()) {
            r.body().string();
            // A new connection: the server announced its close (Connection: close), which OkHttp obeys by itself.
            connections.learned(
                    trace.connection() == RequestRecord.Connection.REUSED
                            ? "kept the connection open after a streamed response"
                            : "closed the connection after a streamed response, saying so (Connection: close)");
        } catch (IOException e) {
            if (trace.staleConnection()) {
                connections.learnedClosesAfterEachResponse(
                        "closed the connection after a streamed response (without Connection: close)");
            }
        }
    }

    @Override
    public Measurement measure(MeasurementRequest request, Consumer<RequestRecord> sink) {
        return measure(WorkloadSpec.of(request.workload()), request, sink);
    }

    /**
     * This probe as a measurer whose requests also carry {@code prompts}' dataset, trace, shared prefix and client
     * tokenizer, with each load point's own lengths.
     */
    public Measurer sending(WorkloadSpec prompts) {
        return (request, sink) -> measure(prompts.withLengths(request.workload()), request, sink);
    }

    private Measurement measure(WorkloadSpec workload, MeasurementRequest request, Consumer<RequestRecord> sink) {
        return measurement(request, run(workload, request, sink, false, Share.ALL, null, null));
    }

    private static Measurement measurement(MeasurementRequest request, ProbeResult r) {
        return new Measurement(
                request,
                r.records(),
                (long) (r.elapsedSeconds() * 1e9),
                false,
                request.seed(),
                new Measurement.Notes(
                        r.target().model(),
                        r.inputLength(),
                        r.promptSalt(),
                        r.connections(),
                        r.startEpochMicros(),
                        r.client()));
    }

    /** Most requests in flight at once: the users, the cap, or an estimate for an uncapped open loop. */
    static int expectedConnections(MeasurementRequest point) {
        return switch (point.load()) {
            case LoadModel.Closed c ->
                c.concurrency()
                        * (point.sessions() == null ? 1 : 1 + point.sessions().fanOut());
            case LoadModel.Open o ->
                point.maxConcurrency() > 0
                        ? point.maxConcurrency()
                        : (int) Math.min(4096, Math.ceil(o.ratePerSecond() * 30));
        };
    }

    /** The first model the server lists; a clear error when it lists none or cannot be reached. */
    private String firstModel(OkHttpClient http) {
        Request.Builder rb = new Request.Builder().url(target.url("/v1/models")).get();
        RequestBodies.authorized(target, rb);
        try (Response r = http.newCall(rb.build()).execute()) {
            if (!r.isSuccessful()) {
                throw new BadInputException("GET " + target.url("/v1/models") + " answered HTTP " + r.code()
                        + "; pass {model} to name the model");
            }
            JsonNode id =
                    MAPPER.readTree(r.body().string()).path("data").path(0).path("id");
            if (!id.isTextual()) {
                throw new BadInputException(target.url("/v1/models") + " lists no model; pass {model}");
            }
            return id.asText();
        } catch (IOException e) {
            // Nothing listening, or another protocol there (https to a plain-http port): the target refused the run
            // before its first request, the same exit as when it refuses the first requests with --model given.
            throw new TargetRefusedException(
                    "cannot reach " + target.url("/v1/models") + ": " + e.getMessage()
                            + " (nothing listening there, or not HTTP as the URL says)",
                    0);
        }
    }
}
