package dev.headroom.reports.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.Slo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every real sample file of every tool imports, with the numbers the file holds, and nothing the file lacks. */
class ImportsTest {
    private static final Path SAMPLES = Path.of("src", "test", "resources", "samples");

    private static JsonNode one(String file) {
        List<Imported> all = Imports.read("auto", SAMPLES.resolve(file));
        assertEquals(1, all.size(), file);
        return ImportedJson.tree(all.getFirst(), List.of(), "test");
    }

    private static double at(JsonNode n, String pointer) {
        JsonNode v = n.at(pointer);
        assertTrue(
                v.isNumber(), pointer + " in " + n.path("source").path("file").asText() + ": " + v);
        return v.asDouble();
    }

    @Test
    void everySampleFileImportsAsItsOwnTool() throws IOException {
        try (Stream<Path> files = Files.walk(SAMPLES)) {
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().endsWith(".md"))
                    .toList()) {
                String tool = SAMPLES.relativize(f).getName(0).toString();
                List<Imported> all = Imports.read("auto", f);
                assertFalse(all.isEmpty(), f.toString());
                for (Imported r : all) assertEquals(tool, r.tool(), f.toString());
                // Naming the tool works too, and naming the wrong one is refused.
                assertEquals(all.size(), Imports.read(tool, f).size());
                String other = tool.equals("vllm") ? "sglang" : "vllm";
                var e = assertThrows(IllegalArgumentException.class, () -> Imports.read(other, f));
                assertTrue(e.getMessage().contains(tool), e.getMessage());
            }
        }
    }

    @Test
    void vllmKeepsItsNumbersAndLeavesOutWhatItDidNotMeasure() {
        JsonNode v = one("vllm/benchmark_2025-05-13_04-55-27.json");
        assertEquals(243.57119981985306, at(v, "/metrics/ttft_ms/mean"), 1e-9);
        assertEquals(261.66544687526766, at(v, "/metrics/ttft_ms/p99"), 1e-9);
        assertEquals(3.483002633829972, at(v, "/metrics/requests_per_s"), 1e-12);
        assertEquals("open", v.at("/load/mode").asText());
        assertEquals(3.6, at(v, "/load/rate"), 1e-12);
        assertTrue(v.at("/metrics/e2e_ms").isMissingNode(), "this vLLM version wrote no e2el");
        assertTrue(v.at("/metrics/goodput_requests_per_s").isMissingNode(), "request_goodput: null is not a number");
        JsonNode trimmed = one("vllm/serving_llama8B_tp1_1.json");
        assertTrue(trimmed.at("/counts/completed").isMissingNode()
                && trimmed.at("/metrics/requests_per_s").isMissingNode());
        JsonNode sweep = one("vllm/run=0.json");
        assertEquals("closed", sweep.at("/load/mode").asText());
        assertEquals(2, at(sweep, "/load/concurrency"));
        assertEquals(166.47808399284258, at(sweep, "/metrics/e2e_ms/p50"), 1e-9);
        assertEquals(
                2, Imports.read("vllm", SAMPLES.resolve("vllm/summary.json")).size());
    }

    @Test
    void aiperfInItsThreeShapesWithExactPercentilesFromItsRecords() {
        JsonNode a = one("aiperf/profile_export_aiperf.json");
        assertEquals(89, at(a, "/counts/completed"));
        assertEquals(11, at(a, "/counts/failed"));
        assertEquals(0.11, at(a, "/metrics/error_rate"), 1e-12);
        assertEquals(100, at(a, "/load/concurrency"));
        // From the 89 successful records of profile_export.jsonl beside it.
        assertTrue(
                a.path("source").path("notes").toString().contains("computed exactly from 100 records"),
                a.path("source").toString());
        // AIPerf's inter_token_latency is Headroom's tpot, never its itl.
        assertEquals(27.76, at(a, "/metrics/tpot_ms/mean"), 0.01);
        JsonNode b = one("aiperf/profile_export_aiperf_2.json");
        assertEquals(
                30.668547999999998,
                at(b, "/metrics/ttft_ms/p50"),
                1e-9,
                "the 10-record jsonl beside it is another run");
        assertTrue(b.path("source").path("notes").toString().contains("a different run"));
        JsonNode c = one("aiperf/profile_export_aiperf_3.json");
        assertEquals(22.508355, at(c, "/metrics/ttft_ms/p50"), 1e-9);
        assertTrue(c.at("/counts/completed").isMissingNode());
        JsonNode csv = one("aiperf/profile_export_aiperf.csv");
        assertEquals(2343.22, at(csv, "/metrics/ttft_ms/mean"), 1e-9);
        assertEquals(9.32, at(csv, "/window_s"), 1e-9);
    }

    @Test
    void guidellmJsonAndYamlAgreeAndConvertSeconds() {
        JsonNode json = one("guidellm/benchmarks_stripped.json"), yaml = one("guidellm/benchmarks_stripped.yaml");
        assertEquals(16.792535781860348, at(json, "/metrics/ttft_ms/mean"), 1e-9);
        assertEquals(at(json, "/metrics/ttft_ms/mean"), at(yaml, "/metrics/ttft_ms/mean"), 1e-9);
        assertEquals(46, at(json, "/counts/completed"));
        assertEquals(1, at(json, "/counts/incomplete"));
        assertEquals("closed", json.at("/load/mode").asText());
        assertTrue(at(json, "/metrics/e2e_ms/mean") > 100, "request_latency seconds → ms");
        JsonNode qwen = one("guidellm/Qwen_Qwen3-4B-Thinking-2507_tp4_quant-fp8_benchmarks.json");
        assertEquals(4, at(qwen, "/load/concurrency"));
        assertEquals(172.63293266296387, at(qwen, "/metrics/ttft_ms/p99"), 1e-9);
        assertEquals("0.5.0.dev0", qwen.at("/source/version").asText());
    }

    @Test
    void sglangLinesAreRunsAndInfinityIsRead() {
        List<Imported> runs = Imports.read("auto", SAMPLES.resolve("sglang/llama_3_3_70b_online_output.jsonl"));
        assertEquals(7, runs.size());
        JsonNode first = ImportedJson.tree(runs.getFirst(), List.of(), "t");
        assertEquals(85.74514742940664, at(first, "/metrics/ttft_ms/p50"), 1e-9);
        assertTrue(first.at("/metrics/ttft_ms/mean").isMissingNode(), "no mean_ttft_ms in this version");
        JsonNode inf = one("sglang/deepseek_dp_mla_output.jsonl");
        assertEquals("inf", inf.at("/load/rate").asText());
    }

    @Test
    void llmperfAndGenaiPerfConvertUnitsAndQuotedNumbers() {
        JsonNode l = one("llmperf/01-ai-Yi-1-5-34B-Chat_550_150_summary.json");
        assertEquals(8, at(l, "/load/concurrency"));
        assertTrue(at(l, "/metrics/ttft_ms/p50") > 1000, "seconds → ms");
        assertTrue(
                l.at("/metrics/tpot_ms").isMissingNode()
                        && l.at("/metrics/itl_ms").isMissingNode(),
                "LLMPerf's inter-token latency is neither ours: not imported as either");
        JsonNode g = one("genai-perf/profile_export_genai_perf.csv");
        assertEquals(2235.71, at(g, "/metrics/e2e_ms/mean"), 1e-9);
        assertEquals(7729.99, at(g, "/metrics/e2e_ms/max"), 1e-9);
        assertEquals(96, at(g, "/counts/completed"));
        assertEquals(
                5,
                Imports.read("auto", SAMPLES.resolve("genai-perf/analyze_export_genai_perf.csv"))
                        .size());
        JsonNode raw = one("genai-perf/profile_export.json");
        assertEquals(39, at(raw, "/counts/completed"));
        assertEquals(
                at(one("genai-perf/profile_export_genai_perf_2.csv"), "/metrics/e2e_ms/p50"),
                at(raw, "/metrics/e2e_ms/p50"),
                0.1,
                "the per-request export agrees with the CSV made from it");
    }

    @Test
    void slosAreCheckedOnTheSourcesOwnStatisticsOrRefused() {
        Imported a = Imports.read("auto", SAMPLES.resolve("aiperf/profile_export_aiperf_2.json"))
                .getFirst();
        JsonNode t = ImportedJson.tree(a, List.of(Slo.parse("ttft:p95<100ms")), "t");
        assertTrue(t.path("slo_pass").asBoolean());
        assertEquals(33.0437491, t.at("/slo/0/observed").asDouble(), 1e-9);
        Imported v = Imports.read("auto", SAMPLES.resolve("vllm/benchmark_2025-05-13_04-55-27.json"))
                .getFirst();
        var e = assertThrows(
                IllegalArgumentException.class, () -> ImportedJson.tree(v, List.of(Slo.parse("e2e:p95<1s")), "t"));
        assertTrue(e.getMessage().contains("no e2e p95"), e.getMessage());
    }

    @Test
    void aFileOfNoKnownToolIsRefusedInOneLine(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("x.json");
        Files.writeString(f, "{\"hello\": 1}");
        var e = assertThrows(IllegalArgumentException.class, () -> Imports.read("auto", f));
        assertEquals(1, e.getMessage().lines().count());
        assertTrue(e.getMessage().contains("not a result file Headroom can import"));
        assertThrows(IllegalArgumentException.class, () -> Imports.read("locust", f));
    }
}
