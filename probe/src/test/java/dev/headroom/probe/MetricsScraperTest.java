package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ServerMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsScraperTest {

    @Test
    void aScrapeInterruptedByTheEndOfARunIsNotCountedAsTheServersFailure(@TempDir Path tmp) throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    // Slow enough that the run ends while the first scrape waits for its answer.
                    return new MockResponse.Builder()
                            .headersDelay(600, TimeUnit.MILLISECONDS)
                            .body("vllm:num_requests_running 3\n")
                            .build();
                }
            });
            server.start();
            Path file = tmp.resolve("server_metrics.jsonl");
            MetricsScraper scraper = new MetricsScraper(server.url("/metrics").toString(), Duration.ofSeconds(1), file);
            Thread.sleep(200);
            ServerMetrics m = scraper.finish();
            assertEquals(0, m.failed(), "lines: " + Files.readString(file));
            assertTrue(m.scrapes() >= 1, "the last scrape, after the stop, is measured");
            assertTrue(server.getRequestCount() >= 2, "the interrupted scrape and the last one were sent");
        }
    }

    @Test
    void aServerThatFailsItsScrapesIsCountedWithTheReason(@TempDir Path tmp) throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    return new MockResponse.Builder().code(503).body("busy").build();
                }
            });
            server.start();
            MetricsScraper scraper = new MetricsScraper(
                    server.url("/metrics").toString(), Duration.ofSeconds(1), tmp.resolve("m.jsonl"));
            Thread.sleep(100);
            ServerMetrics m = scraper.finish();
            assertTrue(m.failed() >= 1, "failed " + m.failed());
            assertEquals("HTTP 503", scraper.lastError());
        }
    }
}
