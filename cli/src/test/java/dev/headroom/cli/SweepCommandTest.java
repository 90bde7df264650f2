package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepCommandTest {

    @Test
    void sweepRunsEveryPointIntoOneDirectoryAndMarksTheKnee(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("sweep");
        var r = CliTest.run(
                "sweep",
                "--concurrency",
                "1,8,64",
                "--requests",
                "24",
                "--warmup-requests",
                "4",
                "--isl",
                "128",
                "--osl",
                "16",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("◀ knee"), r.out());
        JsonNode s = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertEquals("headroom.sweep/v1", s.get("schema").asText());
        assertEquals(3, s.get("points").size());
        for (JsonNode p : s.get("points")) {
            assertEquals(24, p.at("/counts/completed").asInt());
            assertTrue(Files.exists(out.resolve(p.get("dir").asText()).resolve("summary.json")), p.toString());
        }
        // Throughput rises with load on the simulator.
        assertTrue(s.at("/points/2/metrics/output_tokens_per_s").asDouble()
                > s.at("/points/0/metrics/output_tokens_per_s").asDouble());
        assertTrue(s.at("/knee/index").asInt() >= 1);
        assertEquals(4, Files.readAllLines(out.resolve("sweep.csv")).size());
    }

    @Test
    void sweepNeedsItsPoints() {
        var r = CliTest.run("sweep", "--requests", "3");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--concurrency") && r.err().contains("--rate"), r.err());
    }
}
