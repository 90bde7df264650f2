package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportCommandTest {
    private static final Path SAMPLES = Path.of("..", "reports", "src", "test", "resources", "samples");

    @Test
    void aPlanIsBuiltFromAnImportedAiperfFile(@TempDir Path tmp) throws IOException {
        Path imported = tmp.resolve("aiperf");
        var r = CliTest.run(
                "import",
                "--from",
                "aiperf",
                SAMPLES.resolve("aiperf/profile_export_aiperf_2.json").toString(),
                "--slo",
                "ttft:p95<100ms",
                "--out",
                imported.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("SLO pass"), r.out());
        assertTrue(Files.isRegularFile(imported.resolve("report.html")), "imports get a report too");
        JsonNode s =
                new ObjectMapper().readTree(imported.resolve("summary.json").toFile());
        assertEquals("aiperf", s.at("/source/tool").asText());
        Path forecast = tmp.resolve("forecast.yaml");
        Files.writeString(
                forecast,
                "horizon_months: 1\nclasses:\n  - {name: chat, isl: 100, osl: 200, slo: 'ttft:p95<100ms', "
                        + "traffic: {peak_rps: 2, diurnal: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}}\n");
        Path plan = tmp.resolve("plan");
        var p = CliTest.run(
                "plan",
                "--forecast",
                forecast.toString(),
                "--catalog",
                Path.of("..", "configs", "plan", "catalog.yaml").toString(),
                "--capacity",
                "chat@h100=" + imported,
                "--option",
                "h100",
                "--out",
                plan.toString());
        assertEquals(0, p.code(), p.err());
        JsonNode pj = new ObjectMapper().readTree(plan.resolve("plan.json").toFile());
        double capacity = pj.at("/capacities/0/max_rps").asDouble();
        assertEquals(
                s.at("/metrics/requests_per_s").asDouble(), capacity, 1e-4, "one passing point: its measured rate");
        // ⌈2 ÷ (capacity × 0.8)⌉ + 1 replicas.
        assertEquals(
                Math.ceil(2 / (capacity * 0.8)) + 1,
                pj.at("/months/0/replicas/point").asDouble(),
                1e-9);
    }

    @Test
    void severalBenchmarksBecomeASweep(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("sg");
        var r = CliTest.run(
                "import",
                SAMPLES.resolve("sglang/llama_3_3_70b_online_output.jsonl").toString(),
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode sweep = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertEquals(7, sweep.get("points").size());
        for (JsonNode p : sweep.get("points"))
            assertTrue(Files.isRegularFile(out.resolve(p.get("dir").asText()).resolve("summary.json")));
        assertTrue(
                Files.readString(out.resolve("report.html")).contains("<svg"),
                "the sweep report draws the imported points");
        assertEquals(List.of(), ReportFixtures.illegibleTexts(Files.readString(out.resolve("report.html"))));
    }

    @Test
    void anSloTheSourceNeverMeasuredIsRefusedAndNothingIsWritten(@TempDir Path tmp) {
        Path out = tmp.resolve("v");
        var r = CliTest.run(
                "import",
                SAMPLES.resolve("vllm/benchmark_2025-05-13_04-55-27.json").toString(),
                "--slo",
                "e2e:p95<2s",
                "--out",
                out.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no e2e p95"), r.err());
        assertFalse(Files.exists(out.resolve("summary.json")));
    }
}
