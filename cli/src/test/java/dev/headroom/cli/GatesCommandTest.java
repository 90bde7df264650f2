package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CI gates as a pipeline runs them: pass → 0, fail → 8 after every file is written, a bad gate → 2. */
class GatesCommandTest {

    private static CliTest.Run probe(Path out, String... more) {
        return probe(out, 4, more);
    }

    private static CliTest.Run probe(Path out, int concurrency, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "probe",
                "--virtual",
                "--concurrency",
                "" + concurrency,
                "--requests",
                "40",
                "--isl",
                "64",
                "--osl",
                "16"));
        args.addAll(List.of(more));
        args.addAll(List.of("--no-report", "--out", out.toString()));
        return CliTest.run(args.toArray(String[]::new));
    }

    @Test
    void aProbeWhoseSloFailsExitsEightWithEveryFileWritten(@TempDir Path tmp) {
        var pass = probe(tmp.resolve("pass"), "--slo", "ttft:p95<60s", "--fail-on-slo");
        assertEquals(0, pass.code(), pass.err());
        assertFalse(pass.err().contains("gate failed"), pass.err());
        var fail = probe(tmp.resolve("fail"), "--slo", "ttft:p95<1ms", "--fail-on-slo");
        assertEquals(ExitCodes.GATE_FAILED, fail.code(), fail.err());
        assertTrue(fail.err().contains("gate failed: the SLO is not met: ttft:p95<1ms (observed "), fail.err());
        for (String f : List.of("summary.json", "requests.jsonl", "requests.csv", "config.yaml")) {
            assertTrue(Files.isRegularFile(tmp.resolve("fail").resolve(f)), f + " written before the gate");
        }
        var ungated = probe(tmp.resolve("ungated"), "--slo", "ttft:p95<1ms");
        assertEquals(0, ungated.code(), "without --fail-on-slo a failed SLO is a finding, not an exit code");
    }

    @Test
    void aGateIsAConfigKeyToo(@TempDir Path tmp) throws IOException {
        Path config = Files.writeString(
                tmp.resolve("gate.yaml"), "slo: [\"ttft:p95<1ms\"]\nfail-on-slo: true\nmax-error-rate: 1%\n");
        var r = probe(tmp.resolve("run"), "--config", config.toString());
        assertEquals(ExitCodes.GATE_FAILED, r.code(), r.err());
        assertTrue(r.err().contains("gate failed: the SLO is not met"), r.err());
    }

    @Test
    void anErrorRateAboveTheCeilingExitsEight(@TempDir Path tmp) {
        var fail = probe(
                tmp.resolve("fail"), 16, "--sim-max-num-seqs", "2", "--sim-max-waiting", "2", "--max-error-rate", "1%");
        assertEquals(ExitCodes.GATE_FAILED, fail.code(), fail.err());
        assertTrue(
                fail.err().contains("gate failed: error rate ") && fail.err().contains("> the 1% allowed"), fail.err());
        assertTrue(Files.isRegularFile(tmp.resolve("fail").resolve("summary.json")));
        var pass = probe(tmp.resolve("pass"), "--max-error-rate", "0");
        assertEquals(0, pass.code(), pass.err());
    }

    @Test
    void aSweepFailsWhenNoPointPassesOrTheNamedPointFails(@TempDir Path tmp) {
        String[] sweep = {
            "sweep",
            "--virtual",
            "--concurrency",
            "1,64",
            "--requests",
            "40",
            "--isl",
            "2048",
            "--osl",
            "16",
            "--no-report"
        };
        List<String> a = new ArrayList<>(List.of(sweep));
        a.addAll(List.of(
                "--slo",
                "ttft:p95<1ms",
                "--fail-on-slo",
                "--out",
                tmp.resolve("none").toString()));
        var none = CliTest.run(a.toArray(String[]::new));
        assertEquals(ExitCodes.GATE_FAILED, none.code(), none.err());
        assertTrue(none.err().contains("no point of the sweep meets the SLO"), none.err());
        assertTrue(Files.isRegularFile(tmp.resolve("none").resolve("sweep.json")));
        // The single user's prompt is prefilled alone; 64 users' queue behind each other.
        List<String> b = new ArrayList<>(List.of(sweep));
        b.addAll(List.of("--slo", "ttft:p95<150ms", "--out", tmp.resolve("at1").toString(), "--fail-on-slo-at", "1"));
        assertEquals(0, CliTest.run(b.toArray(String[]::new)).code());
        List<String> c = new ArrayList<>(List.of(sweep));
        c.addAll(List.of("--slo", "ttft:p95<150ms", "--out", tmp.resolve("at64").toString(), "--fail-on-slo-at", "64"));
        var at64 = CliTest.run(c.toArray(String[]::new));
        assertEquals(ExitCodes.GATE_FAILED, at64.code(), at64.err());
        assertTrue(at64.err().contains("the point concurrency=64 does not meet the SLO"), at64.err());
        List<String> d = new ArrayList<>(List.of(sweep));
        d.addAll(List.of("--slo", "ttft:p95<150ms", "--out", tmp.resolve("at3").toString(), "--fail-on-slo-at", "3"));
        var at3 = CliTest.run(d.toArray(String[]::new));
        assertEquals(2, at3.code(), at3.err());
        assertTrue(at3.err().contains("--fail-on-slo-at 3 is no point of this sweep; its points are 1, 64"), at3.err());
        assertFalse(Files.exists(tmp.resolve("at3")), "refused before anything is written");
    }

    @Test
    void aSearchBelowItsRequiredAnswerExitsEight(@TempDir Path tmp) {
        String[] search = {"search", "--virtual", "--slo", "ttft:p95<300ms", "--max-probes", "6", "--no-report"};
        List<String> low = new ArrayList<>(List.of(search));
        low.addAll(List.of("--require", "2", "--out", tmp.resolve("low").toString()));
        var pass = CliTest.run(low.toArray(String[]::new));
        assertEquals(0, pass.code(), pass.err());
        List<String> high = new ArrayList<>(List.of(search));
        high.addAll(List.of(
                "--require",
                "100000",
                "--max",
                "2048",
                "--out",
                tmp.resolve("high").toString()));
        var fail = CliTest.run(high.toArray(String[]::new));
        assertEquals(ExitCodes.GATE_FAILED, fail.code(), fail.err());
        assertTrue(fail.err().contains("is below the 1e+05 required"), fail.err());
        assertTrue(Files.isRegularFile(tmp.resolve("high").resolve("search.json")));
    }

    @Test
    void badGatesAreRefusedInOneLineBeforeAnythingRuns(@TempDir Path tmp) {
        for (String[] args : new String[][] {
            {"--max-error-rate", "150%"}, {"--max-error-rate", "5"}, {"--max-error-rate", "lots"}, {"--fail-on-slo"}
        }) {
            Path out = tmp.resolve("r" + args.length + args[args.length - 1].hashCode());
            var r = probe(out, args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains(args[0]), r.err());
            assertFalse(Files.exists(out), "nothing written for " + String.join(" ", args));
        }
    }
}
