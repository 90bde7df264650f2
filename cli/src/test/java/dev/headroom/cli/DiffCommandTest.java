package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.RunDiff;
import dev.headroom.reports.DiffJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom diff} on runs of one server, of a server made 20 % slower, and of different workloads. */
class DiffCommandTest {
    private static final Path HARDWARE = Path.of("..", "configs", "hardware", "h100-sxm.yaml");

    private static Path probe(Path out, long seed, String... more) {
        return probe(out, seed, 128, more);
    }

    private static Path probe(Path out, long seed, int osl, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "probe",
                "--virtual",
                "--concurrency",
                "16",
                "--requests",
                "400",
                "--isl",
                "512",
                "--osl",
                "" + osl,
                "--seed",
                "" + seed,
                "--no-report",
                "--out",
                out.toString()));
        args.addAll(List.of(more));
        var r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return out;
    }

    /** The H100 profile with 20 % less memory bandwidth and compute: every step 20 % slower. */
    private static Path slowerHardware(Path tmp) throws IOException {
        String yaml = Files.readString(HARDWARE)
                .replaceFirst("(?m)^name: h100-sxm", "name: h100-slower")
                .replaceFirst("(?m)^memory_bandwidth_gb_s: 3350", "memory_bandwidth_gb_s: 2680")
                .replaceFirst("(?m)^bf16_tflops: 989", "bf16_tflops: 791.2")
                .replaceFirst("(?m)^fp8_tflops: 1979", "fp8_tflops: 1583.2");
        assertTrue(yaml.contains("2680") && yaml.contains("791.2"), "the profile's figures were replaced");
        return Files.writeString(tmp.resolve("h100-slower.yaml"), yaml);
    }

    @Test
    void twoRunsOfOneServerDifferByNothingBeyondNoise(@TempDir Path tmp) throws IOException {
        Path a = probe(tmp.resolve("a"), 1);
        Path b = probe(tmp.resolve("b"), 2);
        Path out = tmp.resolve("diff");
        var r = CliTest.run("diff", a.toString(), b.toString(), "--fail-on-regression", "5%", "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        RunDiff d = DiffJson.read(out.resolve("diff.json"));
        assertEquals("probe", d.kind());
        assertEquals(12, d.rows().size(), "ttft, tpot, e2e at p50/p90/p99, two rates and the error rate");
        for (RunDiff.Row row : d.rows()) {
            assertEquals(RunDiff.Verdict.SAME, row.verdict(), row.toString());
            assertTrue(row.low() <= row.high(), row.toString());
        }
        assertTrue(r.out().contains("0 of 12 comparisons beyond noise"), r.out());
        assertTrue(Files.size(out.resolve("diff.csv")) > 0 && Files.size(out.resolve("report.html")) > 0);
        assertTrue(Files.readString(out.resolve("report.html")).contains("within noise"));
    }

    @Test
    void aServerMadeTwentyPercentSlowerIsDetected(@TempDir Path tmp) throws IOException {
        Path a = probe(tmp.resolve("a"), 1);
        Path b =
                probe(tmp.resolve("b"), 2, "--sim-hardware", slowerHardware(tmp).toString());
        Path out = tmp.resolve("diff");
        var r = CliTest.run(
                "diff",
                a.toString(),
                b.toString(),
                "--fail-on-regression",
                "10%",
                "--out",
                out.toString(),
                "--no-report",
                "--format",
                "json");
        assertEquals(ExitCodes.GATE_FAILED, r.code(), r.err());
        RunDiff d = DiffJson.read(out.resolve("diff.json"));
        for (String metric : List.of("tpot_ms", "e2e_ms")) {
            RunDiff.Row p50 = d.rows().stream()
                    .filter(x -> x.metric().equals(metric) && x.stat().equals("p50"))
                    .findFirst()
                    .orElseThrow();
            assertEquals(RunDiff.Verdict.WORSE, p50.verdict(), p50.toString());
            assertEquals(0.20, p50.change(), 0.05, metric + " p50 20 % slower: " + p50);
            assertTrue(p50.low() > 0.1, "its interval excludes no change: " + p50);
        }
        RunDiff.Row tokens = d.rows().stream()
                .filter(x -> x.metric().equals("output_tokens_per_s"))
                .findFirst()
                .orElseThrow();
        assertEquals(RunDiff.Verdict.WORSE, tokens.verdict(), tokens.toString());
        assertTrue(r.err().contains("gate failed: concurrency=16 tpot_ms p50 regressed +"), r.err());
        var loose = CliTest.run(
                "diff",
                a.toString(),
                b.toString(),
                "--fail-on-regression",
                "50%",
                "--out",
                tmp.resolve("loose").toString(),
                "--no-report");
        assertEquals(0, loose.code(), "worse, but by less than the 50 % allowed: " + loose.err());
    }

    @Test
    void aNoiseThresholdOutOfRangeIsRefusedInOneLine(@TempDir Path tmp) {
        var r = CliTest.run(
                "diff",
                "a",
                "b",
                "--noise-threshold",
                "60%",
                "--out",
                tmp.resolve("d").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.code(), r.err());
        assertEquals(
                "error: --noise-threshold must be from 0% to 50%, got 60.0%",
                r.err().strip());
    }

    @Test
    void runsOfDifferentWorkloadsAreRefusedInOneLineUnlessAllowed(@TempDir Path tmp) {
        Path a = probe(tmp.resolve("a"), 1);
        Path b = probe(tmp.resolve("b"), 1, 64);
        Path out = tmp.resolve("diff");
        var r = CliTest.run("diff", a.toString(), b.toString(), "--out", out.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("osl fixed:128") && r.err().contains("osl fixed:64"), r.err());
        assertTrue(r.err().contains("--allow-different-workloads"), r.err());
        assertFalse(Files.exists(out), "nothing written");
        var allowed = CliTest.run(
                "diff",
                a.toString(),
                b.toString(),
                "--allow-different-workloads",
                "--out",
                out.toString(),
                "--no-report");
        assertEquals(0, allowed.code(), allowed.out() + allowed.err());
        assertTrue(allowed.out().contains("workloads differ (allowed)"), allowed.out());
        var kinds = CliTest.run(
                "diff", a.toString(), tmp.toString(), "--out", tmp.resolve("k").toString());
        assertEquals(2, kinds.code(), kinds.err());
    }
}
