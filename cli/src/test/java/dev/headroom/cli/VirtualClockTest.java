package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code probe --virtual} and {@code sweep --virtual}: the simulator's engine on its virtual clock, from the CLI. */
class VirtualClockTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode probe(Path out, String... extra) throws IOException {
        List<String> args = new ArrayList<>(
                List.of("probe", "--virtual", "--sim-noise", "0", "--sim-stall-probability", "0", "--no-report"));
        args.addAll(List.of(extra));
        args.addAll(List.of("--out", out.toString()));
        var r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(out.resolve("summary.json").toFile());
    }

    @Test
    void probeOnTheVirtualClockIsLabelledSimulatedAndRepeatsExactly(@TempDir Path tmp) throws IOException {
        // Ten virtual minutes of load: a real-time probe would take them.
        String[] point = {"--rate", "20", "--duration", "600s", "--warmup", "10s", "--isl", "512", "--osl", "64"};
        JsonNode a = probe(tmp.resolve("a"), point);
        JsonNode b = probe(tmp.resolve("b"), point);
        assertEquals("virtual://simulator", a.at("/target/url").asText());
        assertTrue(
                a.at("/target/simulator").asText().endsWith("virtual clock"),
                a.at("/target").toString());
        assertTrue(a.at("/counts/completed").asInt() > 10_000, a.at("/counts").toString());
        assertEquals(a.get("metrics"), b.get("metrics"), "same seed, same point: the same numbers");
        assertTrue(Files.size(tmp.resolve("a/requests.jsonl")) > 0);
    }

    @Test
    void fp8KvCacheRelievesAKvBoundPoint(@TempDir Path tmp) throws IOException {
        String[] point = {
            "--sim-model",
            "llama-3.1-70b",
            "--sim-tp",
            "4",
            "--concurrency",
            "128",
            "--isl",
            "4096",
            "--osl",
            "512",
            "--requests",
            "300"
        };
        List<String> bf16 = new ArrayList<>(List.of(point));
        bf16.addAll(List.of("--sim-kv-cache-dtype", "bf16"));
        List<String> fp8 = new ArrayList<>(List.of(point));
        fp8.addAll(List.of("--sim-kv-cache-dtype", "fp8"));
        JsonNode slow = probe(tmp.resolve("bf16"), bf16.toArray(String[]::new));
        JsonNode fast = probe(tmp.resolve("fp8"), fp8.toArray(String[]::new));
        // 128 x 4.6k tokens need ~590k tokens of KV: a BF16 cache on 4 H100s holds ~440k, an FP8 one twice that.
        assertTrue(fast.at("/metrics/ttft_ms/p50").asDouble() * 3
                < slow.at("/metrics/ttft_ms/p50").asDouble());
        assertTrue(fast.at("/metrics/output_tokens_per_s").asDouble()
                > 1.1 * slow.at("/metrics/output_tokens_per_s").asDouble());
        assertTrue(
                fast.at("/target/simulator").asText().contains("fp8 KV"),
                fast.at("/target").toString());
        String config = Files.readString(tmp.resolve("fp8/config.yaml"));
        assertTrue(config.contains("kv_cache_dtype: \"fp8\""), config);
    }

    @Test
    void withoutChunkedPrefillALongPromptStallsTheDecodes(@TempDir Path tmp) throws IOException {
        // Closed loop, 8 users, 8k-token prompts: a whole prefill is ~0.3 s of compute the others' decodes wait for.
        String[] point = {"--concurrency", "8", "--isl", "8000", "--osl", "128", "--requests", "80"};
        List<String> whole = new ArrayList<>(List.of(point));
        whole.add("--no-sim-chunked-prefill");
        JsonNode chunked = probe(tmp.resolve("chunked"), point);
        JsonNode stalled = probe(tmp.resolve("whole"), whole.toArray(String[]::new));
        assertTrue(
                stalled.at("/metrics/itl_ms/max").asDouble()
                        > 1.5 * chunked.at("/metrics/itl_ms/max").asDouble(),
                "max itl " + stalled.at("/metrics/itl_ms") + " vs " + chunked.at("/metrics/itl_ms"));
        assertTrue(Files.readString(tmp.resolve("whole/config.yaml")).contains("chunked_prefill: false"));
    }

    @Test
    void anEngineProfileBringsItsSchedulerUnlessAnOptionSaysOtherwise(@TempDir Path tmp) throws IOException {
        String[] point = {"--rate", "8", "--isl", "256", "--osl", "100", "--requests", "200"};
        List<String> sglang = new ArrayList<>(List.of(point));
        sglang.addAll(List.of("--sim-engine", "sglang"));
        List<String> mixed = new ArrayList<>(sglang);
        mixed.addAll(List.of("--sim-mixed-batches", "--no-sim-overlap-scheduling"));
        probe(tmp.resolve("vllm"), point);
        probe(tmp.resolve("sglang"), sglang.toArray(String[]::new));
        probe(tmp.resolve("mixed"), mixed.toArray(String[]::new));
        String v = Files.readString(tmp.resolve("vllm/config.yaml"));
        String s = Files.readString(tmp.resolve("sglang/config.yaml"));
        String m = Files.readString(tmp.resolve("mixed/config.yaml"));
        assertTrue(v.contains("mixed_batches: true") && v.contains("overlap_scheduling: false"), v);
        assertTrue(s.contains("mixed_batches: false") && s.contains("overlap_scheduling: true"), s);
        assertTrue(m.contains("mixed_batches: true") && m.contains("overlap_scheduling: false"), m);
    }

    @Test
    void sweepOnTheVirtualClockRunsEveryPoint(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("sweep");
        var r = CliTest.run(
                "sweep",
                "--virtual",
                "--concurrency",
                "1,16,128",
                "--requests",
                "200",
                "--osl",
                "64",
                "--out",
                out.toString(),
                "--no-report");
        assertEquals(0, r.code(), r.err());
        JsonNode s = JSON.readTree(out.resolve("sweep.json").toFile());
        assertEquals(3, s.get("points").size());
        assertTrue(s.at("/points/2/metrics/output_tokens_per_s").asDouble()
                > 10 * s.at("/points/0/metrics/output_tokens_per_s").asDouble());
        assertTrue(
                s.at("/run/simulator").asText("").endsWith("virtual clock")
                        || s.toString().contains("virtual clock"),
                s.toString().substring(0, 400));
    }

    @Test
    void theVirtualClockRefusesWhatItCannotSimulate() {
        var url = CliTest.run("probe", "--virtual", "--url", "http://127.0.0.1:1", "--requests", "3");
        assertEquals(2, url.code());
        assertTrue(url.err().contains("--virtual") && url.err().contains("--url"), url.err());
        var prefix = CliTest.run("probe", "--virtual", "--shared-prefix", "256", "--requests", "3");
        assertEquals(2, prefix.code());
        assertTrue(prefix.err().contains("--shared-prefix"), prefix.err());
        var kv = CliTest.run("probe", "--virtual", "--sim-kv-cache-dtype", "int4", "--requests", "3");
        assertEquals(2, kv.code());
        assertTrue(kv.err().contains("int4") && kv.err().contains("fp8"), kv.err());
        assertFalse(kv.err().contains("\tat "), kv.err());
    }
}
