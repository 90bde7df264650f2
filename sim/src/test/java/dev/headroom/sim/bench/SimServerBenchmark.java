package dev.headroom.sim.bench;

import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import dev.headroom.sim.profile.Profiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Benchmark of the real-time simulator server (not a test: it asserts nothing about speed, it reports).
 * Holds {@code STREAMS} concurrent streaming requests open against one server in this JVM for {@code SECONDS},
 * and reports concurrent streams, SSE chunks per second, and the server's own emit lag (actual − intended write
 * time of every token). Run: {@code ./mvnw -q -Pbench -pl model,sim test}; the figures are printed and written
 * to {@code sim/target/benchmark-sim-server.json}.
 */
@Tag("benchmark")
class SimServerBenchmark {
    private static final int STREAMS = Integer.getInteger("bench.streams", 1000);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 30);
    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmup", 10);
    private static final int OSL = Integer.getInteger("bench.osl", 256);

    /** Engine steps and generated tokens, read from the server's own /metrics text. */
    private static double[] counters(String metrics) {
        double[] c = new double[2];
        for (String line : metrics.lines().toList()) {
            double v = line.startsWith("#") ? 0 : Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            if (line.startsWith("headroom_sim_engine_steps_total")) c[0] = v;
            if (line.startsWith("vllm:generation_tokens_total")) c[1] = v;
        }
        return c;
    }

    @Test
    void realTimeServerUnderThousandsOfStreams() throws Exception {
        // Batch room for every stream, and a prompt short enough that decode dominates.
        EngineConfig engine = EngineConfig.defaults(
                        Profiles.hardware(System.getProperty("bench.hardware", "h100-sxm")),
                        Profiles.model(System.getProperty("bench.model", "llama-3.1-8b")))
                .withMaxNumSeqs(Integer.getInteger("bench.maxNumSeqs", STREAMS + 24));
        try (SimServer server = SimServer.start(SimServer.Config.loopback(engine))) {
            String url = server.baseUri() + "/v1/chat/completions";
            String body = "{\"model\":\"" + server.servedModel() + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                    + "\"Benchmark the server please\"}],\"max_tokens\":" + OSL
                    + ",\"ignore_eos\":true,\"stream\":true}";
            long end = System.nanoTime() + (long) (WARMUP_SECONDS + SECONDS) * 1_000_000_000L;
            AtomicLong peakRunning = new AtomicLong();
            AtomicInteger peakOpen = new AtomicInteger();
            RawSseLoad load = new RawSseLoad(server.baseUri(), "/v1/chat/completions", body, STREAMS, end);
            Thread.sleep(WARMUP_SECONDS * 1000L);
            Histogram lagBefore = server.emitLagMicros();
            double[] before = counters(server.metricsText());
            long chunksBefore = load.events.get();
            long t0 = System.nanoTime();
            long sampleUntil = t0 + SECONDS * 1_000_000_000L;
            while (System.nanoTime() < sampleUntil) {
                Thread.sleep(500);
                peakOpen.accumulateAndGet(load.open.get(), Math::max);
                String metrics = server.metricsText();
                for (String line : metrics.lines().toList()) {
                    if (line.startsWith("vllm:num_requests_running{")) {
                        long running = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                        peakRunning.accumulateAndGet(running, Math::max);
                    }
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long window = load.events.get() - chunksBefore;
            Histogram lag = server.emitLagMicros();
            lag.subtract(lagBefore);
            double[] after = counters(server.metricsText());
            double steps = after[0] - before[0];
            double tokens = after[1] - before[1];
            long failures = load.failures.get();
            load.close();

            String json = String.format(
                    Locale.ROOT,
                    "{\"benchmark\":\"sim-server\",\"hardware\":\"%s\",\"max_num_seqs\":%d,\"model\":\"%s\","
                            + "\"osl\":%d,\"streams\":%d,\"seconds\":%.1f,"
                            + "\"peak_open_streams\":%d,\"peak_running_sequences\":%d,\"chunks_per_second\":%.0f,"
                            + "\"emit_lag_us\":{\"count\":%d,\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d},"
                            + "\"engine_steps_per_second\":%.1f,\"tokens_per_step\":%.1f,\"client_failures\":%d,"
                            + "\"cores\":%d,\"java\":\"%s\"}",
                    engine.hardware().name(),
                    engine.maxNumSeqs(),
                    engine.model().name(),
                    OSL,
                    STREAMS,
                    seconds,
                    peakOpen.get(),
                    peakRunning.get(),
                    window / seconds,
                    lag.getTotalCount(),
                    lag.getValueAtPercentile(50),
                    lag.getValueAtPercentile(90),
                    lag.getValueAtPercentile(99),
                    lag.getValueAtPercentile(99.9),
                    lag.getMaxValue(),
                    steps / seconds,
                    tokens / steps,
                    failures,
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version());
            System.out.println(json);
            Files.writeString(Path.of("target", "benchmark-sim-server.json"), json + "\n");
        }
    }
}
