package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FidelityCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A sources file whose "published" numbers are the simulator's own with a request overhead of 40 ms (the shipped
     * profile has less), at one user and two prompt lengths, from two sources.
     */
    private static Path sources(Path tmp) throws IOException {
        return sources(tmp, "vllm", "h100-sxm");
    }

    /** As above, the entries naming {@code engine} and {@code hardware} (a profile name or file). */
    private static Path sources(Path tmp, String engine, String hardware) throws IOException {
        String stock = Files.readString(Path.of("..", "configs", "hardware", "h100-sxm.yaml"));
        Path hidden = tmp.resolve("hidden.yaml");
        Files.writeString(hidden, stock.replaceAll("(?m)^request_overhead_ms:.*$", "") + "request_overhead_ms: 40\n");
        StringBuilder b = new StringBuilder(
                "schema: headroom.published/v1\nengines:\n  vllm: {max_num_seqs: 256}\n" + "results:\n");
        int i = 0;
        for (int isl : new int[] {256, 4096}) {
            for (String source : new String[] {"one", "two"}) {
                Path out = tmp.resolve("p" + i);
                var r = CliTest.run(
                        "probe",
                        "--virtual",
                        "--sim-hardware",
                        hidden.toString(),
                        "--sim-noise",
                        "0",
                        "--sim-stall-probability",
                        "0",
                        "--no-sim-prefix-caching",
                        "--concurrency",
                        "1",
                        "--isl",
                        "" + isl,
                        "--osl",
                        "32",
                        "--requests",
                        "6",
                        "--warmup-requests",
                        "0",
                        "--no-report",
                        "--out",
                        out.toString());
                assertEquals(0, r.code(), r.err());
                JsonNode s = JSON.readTree(out.resolve("summary.json").toFile());
                b.append(String.format(
                        Locale.ROOT,
                        """
                          - id: p%d
                            source: {id: %s}
                            engine: %s
                            hardware: %s
                            tp: 1
                            model_profile: llama-3.1-8b
                            weights: bf16
                            kv_cache: bf16
                            load: {concurrency: 1}
                            requests: 6
                            isl_dist: fixed:%d
                            osl_dist: fixed:32
                            metrics:
                              ttft_ms: {value: %.4f, stat: median}
                              tpot_ms: {value: %.4f, stat: median}
                        """,
                        i++,
                        source + isl,
                        engine,
                        hardware.equals("hidden") ? hidden.toString() : hardware,
                        isl,
                        s.at("/metrics/ttft_ms/p50").asDouble(),
                        s.at("/metrics/tpot_ms/p50").asDouble()));
            }
        }
        Path f = tmp.resolve("published.yaml");
        Files.writeString(f, b.toString());
        return f;
    }

    @Test
    void scoresTheShippedProfilesThenFitsAndCrossValidates(@TempDir Path tmp) throws IOException {
        Path file = sources(tmp);
        var shipped = CliTest.run(
                "fidelity",
                "--sources",
                file.toString(),
                "--out",
                tmp.resolve("a").toString());
        assertEquals(0, shipped.code(), shipped.err());
        assertTrue(shipped.out().contains("median |error|"), shipped.out());
        JsonNode a = JSON.readTree(tmp.resolve("a/fidelity.json").toFile());
        assertEquals("headroom.fidelity/v1", a.get("schema").asText());
        assertEquals(4, a.get("observations").asInt());
        assertFalse(a.get("parameters_fitted").asBoolean());
        double before = a.at("/median_abs_error/ttft/median").asDouble();
        assertTrue(before > 0.05, "the shipped overhead is not 40 ms: " + before);

        var fit = CliTest.run(
                "fidelity",
                "--sources",
                file.toString(),
                "--fit",
                "--rounds",
                "2",
                "--out",
                tmp.resolve("b").toString());
        assertEquals(0, fit.code(), fit.err());
        JsonNode b = JSON.readTree(tmp.resolve("b/fidelity.json").toFile());
        assertTrue(b.get("parameters_fitted").asBoolean());
        assertTrue(
                b.at("/median_abs_error/ttft/median").asDouble() < 0.02,
                b.get("median_abs_error").toString());
        assertTrue(b.has("median_abs_error_cross_validated"), b.toString());
        assertTrue(Files.readString(tmp.resolve("b/profiles/engine-vllm.yaml")).contains("request_overhead_ms:"));
        assertTrue(Files.readString(tmp.resolve("b/profiles/h100-sxm.yaml")).contains("memory_efficiency:"));
        assertTrue(Files.readString(tmp.resolve("b/fidelity.csv")).lines().count() == 9);
        // Each fold says what it held out and what it fitted without it.
        assertTrue(
                fit.err().contains("fold without ") && fit.err().contains("request_overhead_ms[engine:vllm]="),
                fit.err());
    }

    /** A point scored by fidelity is the point probe --virtual runs: the same engine, load, lengths and seed. */
    @Test
    void fidelityPredictsExactlyWhatProbeVirtualMeasured(@TempDir Path tmp) throws IOException {
        // An engine with no profile of its own, on the very hardware file the numbers came from.
        Path file = sources(tmp, "custom", "hidden");
        var r = CliTest.run(
                "fidelity",
                "--sources",
                file.toString(),
                "--out",
                tmp.resolve("a").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode a = JSON.readTree(tmp.resolve("a/fidelity.json").toFile());
        assertEquals(8, a.get("points").size());
        // Equal up to the summary's histogram, which keeps 3 significant digits of a percentile.
        for (JsonNode p : a.get("points")) {
            assertEquals(0, p.get("error").asDouble(), 2e-3, p.toString());
        }
    }

    @Test
    void aMissingSourcesFileIsBadInput(@TempDir Path tmp) {
        var r = CliTest.run("fidelity", "--sources", tmp.resolve("none.yaml").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("none.yaml") && r.err().contains("headroom.published/v1"), r.err());
    }

    @Test
    void aNegativePriorWeightIsBadInput(@TempDir Path tmp) throws IOException {
        var r = CliTest.run("fidelity", "--sources", sources(tmp).toString(), "--fit", "--prior-weight", "-1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--prior-weight") && r.err().contains("-1"), r.err());
    }
}
