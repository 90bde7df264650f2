package dev.headroom.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchCommandTest {

    @Test
    void virtualSearchFindsTheBoundaryAndWritesSearchJson(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("s");
        var r = CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("max-concurrency under ttft:p95<300ms:"), r.out());
        assertTrue(r.out().contains("simulated"), r.out());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals("headroom.search/v1", s.get("schema").asText());
        assertTrue(s.at("/result/simulated").asBoolean());
        double lo = s.at("/result/ci_low").asDouble(), hi = s.at("/result/ci_high").asDouble();
        assertTrue(lo >= 1 && hi > lo, lo + " .. " + hi);
        assertTrue(s.get("probes").size() <= 20);
        for (JsonNode p : s.get("probes")) {
            assertTrue(Files.exists(out.resolve(p.get("dir").asText()).resolve("summary.json")), p.toString());
            boolean pass = p.get("verdict").asText().equals("pass");
            double margin = p.at("/margins/ttft:p95<300ms/value").asDouble();
            assertEquals(pass, margin < 0, p.toString());
        }
        // The measurements at ci_high, pooled by inverse variance as the search pools them, fail.
        double sw = 0, swv = 0;
        for (JsonNode p : s.get("probes")) {
            if (p.get("load").asDouble() != hi) continue;
            double se = Math.max(1e-6, p.at("/margins/ttft:p95<300ms/se").asDouble());
            sw += 1 / (se * se);
            swv += p.at("/margins/ttft:p95<300ms/value").asDouble() / (se * se);
        }
        assertTrue(sw > 0 && swv / sw >= 0, "pooled margin at ci_high " + swv / sw);
        assertFalse(s.at("/curves/isotonic/ttft:p95<300ms").isEmpty());
        assertFalse(Files.exists(out.resolve("search.json.tmp")), "written atomically");
    }

    @Test
    void aSearchNeedsAnSloAndASaneRange() {
        assertEquals(2, CliTest.run("search", "--virtual").code());
        var r = CliTest.run("search", "--virtual", "--slo", "ttft:p95<1s", "--min", "10", "--max", "5");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--min") && r.err().contains("--max"), r.err());
        var o = CliTest.run("search", "--virtual", "--slo", "ttft:p95<1s", "--objective", "fastest");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("fastest"), o.err());
    }

    @Test
    void aBoundaryAboveTheRangeIsReportedAsSuch(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("a");
        var r = CliTest.run("search", "--virtual", "--slo", "e2e:p99<600s", "--max", "8", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("search.json").toFile());
        assertEquals("above_max", s.at("/result/stop_reason").asText());
    }
}
