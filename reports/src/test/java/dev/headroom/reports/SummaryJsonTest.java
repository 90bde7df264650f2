package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryJsonTest {

    @Test
    void summaryJsonIsSealedByItsGoldenFile() throws IOException {
        GoldenFiles.assertMatches("summary.json", SummaryJson.write(Fixtures.report()));
    }

    @Test
    void everyContractKeyIsPresent() throws IOException {
        JsonNode j = new ObjectMapper().readTree(SummaryJson.write(Fixtures.report()));
        for (String path : List.of(
                "/schema",
                "/target/url",
                "/target/model",
                "/target/api",
                "/load/mode",
                "/load/concurrency",
                "/load/rate",
                "/load/arrival",
                "/seed",
                "/window_s",
                "/counts/completed",
                "/counts/failed",
                "/counts/incomplete",
                "/counts/warmup",
                "/metrics/output_tokens_per_s",
                "/metrics/requests_per_s",
                "/metrics/total_tokens_per_s",
                "/metrics/goodput_requests_per_s",
                "/metrics/goodput_tokens_per_s",
                "/metrics/slo_attainment",
                "/metrics/error_rate",
                "/slo",
                "/slo_pass",
                "/errors",
                "/client/send_lag_ms",
                "/client/cpu_util",
                "/client/gc_pause_max_ms",
                "/client/client_bound",
                "/client/warnings")) {
            assertFalse(j.at(path).isMissingNode(), path);
        }
        for (String m : List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms", "isl", "osl")) {
            for (String stat : List.of("mean", "p50", "p90", "p95", "p99", "p999", "max")) {
                assertFalse(j.at("/metrics/" + m + "/" + stat).isMissingNode(), m + "." + stat);
            }
        }
        assertEquals("headroom.probe/v1", j.get("schema").asText());
        assertEquals(1, j.at("/errors/http_5xx").asInt());
        // Open loop, from the intended time: r0 100 ms, r1 330 - 250 = 80 ms, r2 640 - 500 = 140 ms.
        assertEquals(80, j.at("/metrics/ttft_ms/min").asDouble(), 0.1);
        assertEquals(140, j.at("/metrics/ttft_ms/max").asDouble(), 0.1);
    }

    @Test
    void csvHasAHeaderAndOneRow() {
        String csv = SummaryCsv.write(List.of(SummaryCsv.row(Fixtures.report())));
        String[] lines = csv.split("\n");
        assertEquals(2, lines.length, csv);
        assertTrue(lines[0].startsWith("mode,concurrency,rate,window_s"), lines[0]);
        assertTrue(lines[1].startsWith("open,,4,0.76,"), lines[1]); // a whole rate without ".0"
        assertEquals(lines[0].split(",").length, lines[1].split(",", -1).length);
    }

    @Test
    void consoleTableShowsTheSloVerdictsAndUnits() {
        String t = ConsoleTable.probe(Fixtures.report());
        assertTrue(t.contains("ttft (ms)") && t.contains("osl (tokens)"), t);
        assertTrue(t.contains("SLO ttft:p95<150ms") && t.contains("FAIL"), t);
        assertTrue(t.contains("SLO error_rate<5%") && t.contains("FAIL"), t);
        assertTrue(t.contains("http_5xx=1"), t);
    }

    @Test
    void consoleTablesShowTheCacheTheConnectionsAndTheMeasurementsWarnings() {
        String t = ConsoleTable.probe(Fixtures.report());
        assertTrue(t.contains("prefix cache: 528 of 1536 prompt tokens cached (34.4%) · 1 of 3 requests hit"), t);
        assertTrue(
                t.contains("connections: 1 opened, 2 reused · auto: kept-alive connections reused while idle < 4.0 s"),
                t);
        assertTrue(t.contains("warning: 1 of 3 requests were served from the server's prefix cache"), t);
        String sweep = ConsoleTable.sweep(List.of(Fixtures.report(), Fixtures.report()));
        assertTrue(
                sweep.contains("warning: point 2: 1 of 3 requests were served from the server's prefix cache"), sweep);
    }
}
