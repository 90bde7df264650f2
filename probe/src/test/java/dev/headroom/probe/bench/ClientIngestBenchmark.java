package dev.headroom.probe.bench;

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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How many SSE chunks per second the probe's client ingests from a server that is not the bottleneck.
 * Run by {@code bench/client-ingest.sh}, which starts nginx serving static 256- and 1024-chunk SSE bodies and
 * passes its URL as {@code -Dbench.url}. Reports; asserts nothing about speed.
 */
@Tag("benchmark")
class ClientIngestBenchmark {
    private static final int SECONDS = Integer.getInteger("bench.seconds", 8);

    @Test
    void chunksPerSecondFromAStaticSseServer() throws Exception {
        String base = System.getProperty("bench.url");
        Assumptions.assumeTrue(base != null, "run through bench/client-ingest.sh (needs -Dbench.url)");
        StringBuilder json = new StringBuilder("{\"benchmark\":\"client-ingest\",\"server\":\"nginx static SSE\","
                + "\"cores\":" + Runtime.getRuntime().availableProcessors() + ",\"points\":[");
        boolean first = true;
        for (int chunks : new int[] {256, 1024}) {
            for (int concurrency : new int[] {1, 8, 64, 256}) {
                Target t = new Target(
                        URI.create(base + "/s" + chunks),
                        Api.CHAT,
                        "bench",
                        null,
                        Map.of(),
                        false,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(60));
                MeasurementRequest plan = Points.of(
                        new LoadModel.Closed(concurrency),
                        Duration.ZERO,
                        0,
                        Duration.ofSeconds(SECONDS),
                        0,
                        Duration.ofSeconds(2),
                        0,
                        Duration.ZERO,
                        Duration.ofSeconds(10),
                        1);
                var workload = new WorkloadSpec(
                        new LengthDistribution.Fixed(16), new LengthDistribution.Fixed(chunks), true, 0);
                ProbeResult r = new Probe(t).run(workload, plan, rec -> {});
                long measuredChunks = 0, completed = 0, failed = 0;
                var errors = new java.util.TreeMap<String, Integer>();
                long start = Long.MAX_VALUE, end = 0;
                for (RequestRecord rec : r.records()) {
                    if (rec.warmup()) continue;
                    if (rec.succeeded()) completed++;
                    if (rec.failed()) {
                        failed++;
                        errors.merge(rec.failure().kind().wireName(), 1, Integer::sum);
                    }
                    measuredChunks += rec.chunkNanos().length;
                    start = Math.min(start, rec.sentNanos());
                    end = Math.max(end, rec.endNanos());
                }
                double rate = measuredChunks / ((end - start) / 1e9);
                String point = String.format(
                        Locale.ROOT,
                        "{\"chunks_per_response\":%d,\"concurrency\":%d,"
                                + "\"completed\":%d,\"failed\":%d,\"errors\":\"%s\",\"chunks_per_second\":%.0f,"
                                + "\"client_cpu\":%.2f}",
                        chunks,
                        concurrency,
                        completed,
                        failed,
                        errors,
                        rate,
                        r.client().cpuUtil());
                System.out.println(point);
                json.append(first ? "" : ",").append(point);
                first = false;
            }
        }
        json.append("]}");
        Files.writeString(Path.of("target", "benchmark-client-ingest.json"), json + "\n");
    }
}
