package dev.headroom.probe.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.probe.Api;
import dev.headroom.probe.Points;
import dev.headroom.probe.Probe;
import dev.headroom.probe.ProbeResult;
import dev.headroom.probe.Target;
import dev.headroom.probe.WorkloadSpec;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The client's timing error against the simulator's ground truth at 512 concurrent streams: for every token,
 * when the probe saw it minus when the server wrote it (both Unix-epoch µs from the same machine's clock).
 * The simulator runs in a second JVM on the same machine; the two share its 2 cores. Run:
 * {@code ./mvnw -q -Pbench install -pl model,sim,probe -am -Dtest=TimingAccuracyBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}; writes {@code probe/target/benchmark-timing-accuracy.json}.
 */
@Tag("benchmark")
class TimingAccuracyBenchmark {
    private static final int STREAMS = Integer.getInteger("bench.streams", 512);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 20);

    @Test
    void clientTimingErrorAgainstServerGroundTruth() throws Exception {
        // The simulator runs in its own JVM, as a real server would: the client's threads do not share its
        // scheduler, only the machine's two cores.
        Process sim = SimServerProcess.start(System.getProperty("bench.hardware", "h100-sxm"), STREAMS);
        try {
            URI base = URI.create(new java.io.BufferedReader(new java.io.InputStreamReader(sim.getInputStream()))
                    .readLine()
                    .trim());
            Target t = new Target(
                    base,
                    Api.CHAT,
                    null,
                    null,
                    Map.of(),
                    false,
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(120));
            MeasurementRequest plan = Points.of(
                    new LoadModel.Closed(STREAMS),
                    Duration.ZERO,
                    0,
                    Duration.ofSeconds(SECONDS),
                    0,
                    Duration.ofSeconds(5),
                    0,
                    Duration.ZERO,
                    Duration.ofSeconds(30),
                    1);
            var workload =
                    new WorkloadSpec(new LengthDistribution.Fixed(64), new LengthDistribution.Fixed(256), true, 0);
            ProbeResult r = new Probe(t).run(workload, plan, rec -> {});
            OkHttpClient http = new OkHttpClient();
            Histogram all = new Histogram(3);
            Histogram first = new Histogram(3);
            long negative = 0, missing = 0;
            for (RequestRecord rec : r.records()) {
                if (rec.warmup() || !rec.succeeded()) continue;
                long[] server = groundTruth(http, base, rec.responseId());
                if (server == null || server.length != rec.chunkNanos().length) {
                    missing++;
                    continue;
                }
                for (int i = 0; i < server.length; i++) {
                    long client = r.startEpochMicros() + rec.chunkNanos()[i] / 1000;
                    long error = client - server[i];
                    if (error < 0) negative++;
                    all.recordValue(Math.max(0, error));
                    if (i == 0) first.recordValue(Math.max(0, error));
                }
            }
            String json = String.format(
                    Locale.ROOT,
                    "{\"benchmark\":\"timing-accuracy\",\"streams\":%d,\"seconds\":%d,"
                            + "\"tokens\":%d,\"error_us\":{\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d},"
                            + "\"first_token_error_us\":{\"p50\":%d,\"p99\":%d},\"negative\":%d,"
                            + "\"unmatched_requests\":%d,"
                            + "\"cores\":%d}",
                    STREAMS,
                    SECONDS,
                    all.getTotalCount(),
                    all.getValueAtPercentile(50),
                    all.getValueAtPercentile(90),
                    all.getValueAtPercentile(99),
                    all.getValueAtPercentile(99.9),
                    all.getMaxValue(),
                    first.getValueAtPercentile(50),
                    first.getValueAtPercentile(99),
                    negative,
                    missing,
                    Runtime.getRuntime().availableProcessors());
            System.out.println(json);
            Files.writeString(Path.of("target", "benchmark-timing-accuracy.json"), json + "\n");
        } finally {
            sim.getOutputStream().close();
            sim.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            sim.destroyForcibly();
        }
    }

    /** The server's write time of every token of one response, from its /debug/requests/{id}. */
    private static long[] groundTruth(OkHttpClient http, URI base, String id) throws java.io.IOException {
        try (Response r = http.newCall(new Request.Builder()
                        .url(base + "/debug/requests/" + id)
                        .build())
                .execute()) {
            if (!r.isSuccessful()) return null;
            var node = new ObjectMapper().readTree(r.body().string()).get("token_written_us");
            long[] out = new long[node.size()];
            for (int i = 0; i < out.length; i++) out[i] = node.get(i).asLong();
            return out;
        }
    }
}
