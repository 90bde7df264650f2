package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerMetricsTest {

    @Test
    void kvCacheUsageTheServerReportsRisesWithLoad(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("s");
        var r = CliTest.run(
                "sweep",
                "--concurrency",
                "1,48",
                "--duration",
                "3s",
                "--isl",
                "2048",
                "--osl",
                "64",
                "--metrics-interval",
                "200ms",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode sweep = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        double[] kv = new double[2], running = new double[2];
        for (int i = 0; i < 2; i++) {
            Path dir = out.resolve(sweep.at("/points/" + i + "/dir").asText());
            assertTrue(Files.size(dir.resolve("server_metrics.jsonl")) > 0);
            JsonNode s = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
            assertTrue(s.at("/server/scrapes").asInt() >= 2, s.path("server").toString());
            assertTrue(s.at("/server/metric_names").asInt() > 6, "every name kept, known or not");
            kv[i] = s.at("/server/kv_cache_usage/mean").asDouble();
            running[i] = s.at("/server/running/max").asDouble();
            assertTrue(s.at("/server/generation_tokens").asDouble() > 0);
        }
        assertTrue(kv[1] > 3 * kv[0], "KV-cache usage at 48 users " + kv[1] + " vs 1 user " + kv[0]);
        assertTrue(running[1] > running[0], running[0] + " → " + running[1]);
    }

    @Test
    void aMetricsEndpointThatDoesNotAnswerIsAWarningNotAFailure(@TempDir Path tmp) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path out = tmp.resolve("p");
        var r = CliTest.run(
                "probe",
                "--concurrency",
                "2",
                "--requests",
                "8",
                "--osl",
                "16",
                "--metrics-url",
                "http://127.0.0.1:" + port + "/metrics",
                "--metrics-interval",
                "200ms",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("metrics scrapes") && r.err().contains("failed"), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(0, s.at("/server/scrapes").asInt());
        assertTrue(s.at("/server/failed_scrapes").asInt() >= 1);
        assertEquals(8, s.at("/counts/completed").asInt(), "the probe itself is unaffected");
        assertEquals(
                2,
                CliTest.run(
                                "probe",
                                "--requests",
                                "4",
                                "--metrics-url",
                                "ftp://x/metrics",
                                "--out",
                                tmp.resolve("b").toString())
                        .code());
    }
}
