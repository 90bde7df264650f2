package dev.headroom.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Measures an OpenAI-compatible streaming endpoint at one load point. Also a {@link Measurer}, so the optimizer
 * can ask it for measurements without knowing it is HTTP.
 */
public final class Probe implements Measurer {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final Target target;

    public Probe(Target target) {
        this.target = target;
    }

    /** Runs one load point; every finished request is also handed to {@code sink} as it ends. */
    public ProbeResult run(WorkloadSpec workload, RunPlan plan, Consumer<RequestRecord> sink) {
        return run(workload, plan, sink, null);
    }

    /** As {@link #run(WorkloadSpec, RunPlan, Consumer)}, ending early when {@code stopEarly} says it has seen enough. */
    public ProbeResult run(WorkloadSpec workload, RunPlan plan, Consumer<RequestRecord> sink,
                           dev.headroom.model.MeasurementRequest.StopRule stopEarly) {
        OkHttpClient http = HttpClients.forLoad(target, plan.expectedConnections());
        var watchdog = new java.util.concurrent.ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon(true).name("probe-watchdog").factory());
        // Two timeouts per request are scheduled and almost always cancelled: drop them at once, or a long run
        // at a high rate would queue millions of dead tasks.
        watchdog.setRemoveOnCancelPolicy(true);
        try (ClientMonitor monitor = new ClientMonitor()) {
            Target resolved = target.model() != null ? target : target.withModel(firstModel(http));
            RequestSource prompts = workload.dataset() != null
                    ? new DatasetSource(resolved.api(), resolved.model(), workload.dataset(), workload, plan.seed())
                    : new PromptFactory(resolved.api(), resolved.model(), workload);
            prompts.calibrate(http, resolved);
            RunClock clock = new RunClock();
            RequestExecutor executor = new RequestExecutor(http, resolved, clock, watchdog);
            LoadDriver driver = new LoadDriver(executor, prompts, plan, clock, sink, stopEarly);
            List<RequestRecord> records = driver.run();
            double elapsed = clock.now() / 1e9;
            return new ProbeResult(resolved, plan, workload, prompts.inputLength(), records, driver.peakInFlight(),
                    clock.originEpochMicros(), elapsed, monitor.cpuMean(), monitor.cpuMax(), monitor.gcPauseMaxMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("probe interrupted", e);
        } finally {
            watchdog.shutdownNow();
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }

    @Override
    public Measurement measure(MeasurementRequest request) {
        RunPlan plan = new RunPlan(request.load(), Duration.ZERO, 0,
                request.length().maxSeconds() < 1e9 ? Duration.ofMillis((long) (request.length().maxSeconds() * 1000)) : null,
                request.length().requests(), Duration.ofNanos(Math.round(request.length().warmupSeconds() * 1e9)),
                request.length().warmupRequests(),
                Duration.ofNanos(Math.round(request.length().rampSeconds() * 1e9)), Duration.ofSeconds(30), request.seed());
        ProbeResult r = run(WorkloadSpec.of(request.workload()), plan, rec -> { }, request.stopEarly());
        return new Measurement(request, r.records(), (long) (r.elapsedSeconds() * 1e9), false, request.seed());
    }

    /** The first model the server lists; a clear error when it lists none or cannot be reached. */
    private String firstModel(OkHttpClient http) {
        Request.Builder rb = new Request.Builder().url(target.url("/v1/models")).get();
        RequestBodies.authorized(target, rb);
        try (Response r = http.newCall(rb.build()).execute()) {
            if (!r.isSuccessful()) {
                throw new IllegalArgumentException("GET " + target.url("/v1/models") + " answered HTTP " + r.code()
                        + "; pass --model to name the model");
            }
            JsonNode id = MAPPER.readTree(r.body().string()).path("data").path(0).path("id");
            if (!id.isTextual()) {
                throw new IllegalArgumentException(target.url("/v1/models") + " lists no model; pass --model");
            }
            return id.asText();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + target.url("/v1/models") + ": " + e.getMessage(), e);
        }
    }
}
