package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import dev.headroom.sim.profile.Profiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inputs a hostile new user gave that once ran out of memory, crashed or were silently accepted: each is bad input
 * (exit 2) in one line that names the value and what would be valid, with nothing written.
 */
class HostileInputTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            users beyond memory | probe --virtual --concurrency 2000000000 --requests 10 | \
            --concurrency must be at most 1000000 users, got 2000000000
            a port past 65535 | probe --url http://127.0.0.1:99999 --model m --requests 1 | \
            its port is not a TCP port; give one from 1 to 65535
            no requests to measure | probe --virtual --requests 0 | --requests must be >= 1, got 0
            a timeout of nothing | probe --virtual --timeout 0s --requests 2 | '0s' is no time at all
            a TP that splits heads | probe --virtual --sim-tp 3 --requests 2 | \
            --sim-tp 3 does not divide llama-3.1-8b's 32 attention heads; give one of [1, 2, 4, 8, 16, 32]
            a misspelt objective | search --objective max-fun | \
            'max-fun' is not an objective; valid: max-concurrency, max-rate, max-goodput
            a misspelt option | probe --virtual --concurency 4 | \
            unknown option '--concurency'; did you mean --concurrency?
            a value that is no number | probe --virtual --requests abc | \
            Invalid value for option '--requests': 'abc' is not an int
            a prompt beyond any context | probe --virtual --isl 999999999 --requests 2 | \
            a request of 999999999 prompt and 256 answer tokens (the means of --isl and --osl) does not fit the \
            131072 tokens the simulator gives one request
            an answer beyond any context | probe --virtual --osl 999999999 --requests 2 | \
            a request of 512 prompt and 999999999 answer tokens (the means of --isl and --osl) does not fit the \
            131072 tokens the simulator gives one request
            """)
    void isRefusedInOneLineNamingTheValue(String what, String args, String message, @TempDir Path tmp) {
        Path out = tmp.resolve("out");
        List<String> argv = new ArrayList<>(List.of(args.strip().split(" ")));
        argv.addAll(List.of("--out", out.toString()));
        var r = CliTest.run(argv.toArray(String[]::new));
        assertEquals(2, r.code(), what + ": " + r.err());
        assertTrue(r.err().contains(message.strip()), what + ": " + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out), what + ": nothing written");
    }

    private static final Path PLAN = Path.of("..", "configs", "plan");

    /** The plan's own inputs with one file changed: {@code file} gets {@code from} replaced by {@code to}. */
    private static String[] plan(Path tmp, String file, String from, String to, String... more) throws IOException {
        Map<String, Path> files = new LinkedHashMap<>();
        for (String f : List.of("forecast.yaml", "catalog.yaml", "capacities.yaml", "policy.yaml")) {
            String text = Files.readString(PLAN.resolve(f));
            if (f.equals(file)) {
                assertTrue(text.contains(from), f + " holds " + from);
                text = text.replace(from, to);
            }
            files.put(f, Files.writeString(tmp.resolve(f), text));
        }
        List<String> args = new ArrayList<>(List.of(
                "plan",
                "--forecast",
                files.get("forecast.yaml").toString(),
                "--catalog",
                files.get("catalog.yaml").toString(),
                "--capacity",
                files.get("capacities.yaml").toString(),
                "--policy",
                files.get("policy.yaml").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static void refused(String what, String[] args, String message, Path out) {
        List<String> argv = new ArrayList<>(List.of(args));
        argv.addAll(List.of("--out", out.toString()));
        var r = CliTest.run(argv.toArray(String[]::new));
        assertEquals(2, r.code(), what + ": " + r.err());
        assertTrue(r.err().contains(message), what + ": " + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(out), what + ": nothing written");
    }

    @Test
    void planInputsThatWereSilentlyAcceptedAreRefused(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        refused(
                "a misspelt policy key",
                plan(tmp, "policy.yaml", "utilization_target:", "utilisation_target:"),
                "utilisation_target is not a key here; did you mean 'utilization_target'?",
                out);
        refused(
                "a key given twice",
                plan(tmp, "policy.yaml", "min_replicas: 0", "min_replicas: 0\nmin_replicas: 3"),
                "Duplicate field 'min_replicas'",
                out);
        refused(
                "a key with no value, which its default would silently replace",
                plan(tmp, "policy.yaml", "utilization_target: 0.8", "utilization_target: ~"),
                "policy.yaml: utilization_target has no value; give one, or leave the key out for its default",
                out);
        refused(
                "a misspelt top-level catalog key",
                plan(tmp, "catalog.yaml", "options:", "optoins:"),
                "optoins is not a key here; did you mean 'options'?",
                out);
        refused(
                "a horizon beyond memory",
                plan(tmp, "forecast.yaml", "horizon_months: 12", "horizon_months: 100000000"),
                "horizon_months must be from 1 to 1200 (100 years), got 100000000",
                out);
        refused(
                "a peak that overflows",
                plan(tmp, "forecast.yaml", "peak_rps: 120", "peak_rps: 1.0e300"),
                "the peak must be from 0 to 1000000000",
                out);
        refused(
                "a negative verification without --verify",
                plan(tmp, "policy.yaml", "pricing", "pricing", "--verify-seconds", "-5"),
                "--verify-seconds must be from 10 to 86400, got -5.0",
                out);
    }

    @Test
    void misspeltKeysInForecastCapacityAndConfigFilesAreRefusedWithTheNearestKey(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        refused(
                "a misspelt forecast class key",
                plan(
                        tmp,
                        "forecast.yaml",
                        "    osl: 256\n    slo: \"ttft:p95<300ms",
                        "    osl: 256\n    sol: \"ttft:p95<300ms"),
                "classes[0].sol is not a key here; did you mean 'osl' or 'slo'?",
                out);
        refused(
                "a misspelt traffic key",
                plan(tmp, "forecast.yaml", "growth_per_month: 0.05", "growth_per_mnth: 0.05"),
                "classes[0].traffic.growth_per_mnth is not a key here; did you mean 'growth_per_month'?",
                out);
        refused(
                "a misspelt forecast root key",
                plan(tmp, "forecast.yaml", "horizon_months: 12", "horizon_month: 12"),
                "horizon_month is not a key here; did you mean 'horizon_months'?",
                out);
        refused(
                "a misspelt capacity key",
                plan(tmp, "capacities.yaml", "ci_high: 24.6", "ci_hihg: 24.6"),
                "capacities[0].ci_hihg is not a key here; did you mean 'ci_high'?",
                out);
        Path config = Files.writeString(tmp.resolve("c.yaml"), "concurency: 4\n");
        refused(
                "a misspelt config key",
                new String[] {"probe", "--config", config.toString(), "--virtual"},
                "unknown key 'concurency' for headroom probe; did you mean 'concurrency'?",
                tmp.resolve("c"));
        Path otherSection = Files.writeString(tmp.resolve("s.yaml"), "isl: 64\nsearch:\n  objetive: max-rate\n");
        refused(
                "a misspelt key under another command's section",
                new String[] {"probe", "--config", otherSection.toString(), "--virtual"},
                "unknown key 'search.objetive' for headroom search; did you mean 'objective'?",
                tmp.resolve("s"));
        Path hardware = Files.writeString(
                tmp.resolve("hw.yaml"),
                Files.readString(Path.of("..", "configs", "hardware", "h100-sxm.yaml"))
                        .replace("memory_gb:", "memroy_gb:"));
        refused(
                "a misspelt profile key",
                new String[] {"probe", "--virtual", "--sim-hardware", hardware.toString(), "--requests", "2"},
                "unknown key 'memroy_gb'; did you mean 'memory_gb'?",
                tmp.resolve("e"));
        Path twice = Files.writeString(tmp.resolve("d.yaml"), "concurrency: 4\nrequests: 3\nconcurrency: 8\n");
        refused(
                "a config key given twice",
                new String[] {"probe", "--config", twice.toString(), "--virtual"},
                "Duplicate field 'concurrency'",
                tmp.resolve("d"));
    }

    @Test
    void aConcurrencyCapRunsOnTheVirtualClockAndSearchRefusesIt(@TempDir Path tmp) throws IOException {
        Path run = tmp.resolve("capped");
        var r = CliTest.run(
                "probe",
                "--virtual",
                "--rate",
                "50",
                "--max-concurrency",
                "2",
                "--isl",
                "128",
                "--osl",
                "32",
                "--requests",
                "30",
                "--format",
                "json",
                "--out",
                run.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = Files.readAllLines(run.resolve("requests.jsonl"));
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"slot_wait_ms\"")), "some requests waited for a slot");
        refused(
                "a cap a search would ignore",
                new String[] {"search", "--virtual", "--max-concurrency", "4", "--slo", "ttft:p95<300ms"},
                "--max-concurrency 4 is not a search option",
                tmp.resolve("s"));
    }

    @Test
    void aDatasetLineAskingForNegativeTokensAndAConfigDirectoryAreRefused(@TempDir Path tmp) throws IOException {
        Path data = Files.writeString(tmp.resolve("prompts.jsonl"), "{\"prompt\": \"hi\", \"max_tokens\": -5}\n");
        refused(
                "max_tokens -5",
                new String[] {"probe", "--dataset", data.toString(), "--requests", "1"},
                "line 1: max_tokens must be a whole number >= 1 (or left out), got -5",
                tmp.resolve("a"));
        refused(
                "--config DIR",
                new String[] {"probe", "--config", tmp.toString(), "--virtual"},
                "is a directory; give a YAML file",
                tmp.resolve("b"));
    }

    @Test
    void aBadForecastSloAMissingKeyFileAFileForOutAndABinaryRequestsFileAreNamed(@TempDir Path tmp) throws IOException {
        refused(
                "a forecast SLO that does not parse",
                plan(tmp, "forecast.yaml", "ttft:p95<300ms,", "ttft:p95‹,"),
                "slo: bad SLO 'ttft:p95‹'",
                tmp.resolve("a"));
        refused(
                "a missing key file",
                new String[] {
                    "probe",
                    "--url",
                    "http://127.0.0.1:9",
                    "--model",
                    "m",
                    "--api-key-file",
                    tmp.resolve("nope").toString(),
                    "--requests",
                    "1"
                },
                "--api-key-file " + tmp.resolve("nope") + ": no such file",
                tmp.resolve("b"));
        Path file = Files.writeString(tmp.resolve("taken"), "x");
        var r = CliTest.run("probe", "--virtual", "--requests", "2", "--out", file.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--out " + file + " is a file; give a new directory"), r.err());
        Path run = tmp.resolve("run");
        var probe = CliTest.run("probe", "--virtual", "--requests", "5", "--no-report", "--out", run.toString());
        assertEquals(0, probe.code(), probe.err());
        Files.write(run.resolve("requests.jsonl"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0xc3, '\n'});
        var rebuilt = CliTest.run("rebuild", run.toString());
        assertEquals(2, rebuilt.code(), rebuilt.err());
        assertTrue(rebuilt.err().contains("not a text file (its bytes are not UTF-8)"), rebuilt.err());
        assertFalse(rebuilt.err().contains("Input length"), rebuilt.err());
    }

    @Test
    void aTraceLineLongerThanAnyContextIsRefusedByFileAndLine(@TempDir Path tmp) throws IOException {
        Path trace = Files.writeString(
                tmp.resolve("t.jsonl"),
                "{\"timestamp\":0,\"input_length\":64,\"output_length\":16}\n"
                        + "{\"timestamp\":5,\"input_length\":999999999,\"output_length\":16}\n");
        Path good = Files.writeString(
                tmp.resolve("good.jsonl"), "{\"timestamp\":0,\"input_length\":64,\"output_length\":16}\n");
        // The option the user gave is the one named, not a list of what they did not give.
        refused(
                "sessions over a trace of requests",
                new String[] {"probe", "--virtual", "--sessions", "2", "--trace", good.toString()},
                "--trace sets the arrivals; drop --sessions",
                tmp.resolve("out"));
        refused(
                "a trace line of a billion tokens",
                new String[] {"probe", "--virtual", "--trace", trace.toString()},
                "line 2: \"input_length\" 999999999 and \"output_length\" 16 must each be at most 10,000,000 tokens",
                tmp.resolve("out"));
    }

    @Test
    void anUnreachableTargetIsRefusedAlikeWithOrWithoutItsModel(@TempDir Path tmp) throws IOException {
        int run = 0;
        for (List<String> extra : List.of(List.<String>of(), List.of("--model", "m"))) {
            List<String> argv = new ArrayList<>(List.of("probe", "--url", "http://127.0.0.1:1", "--requests", "8"));
            argv.addAll(extra);
            argv.addAll(List.of("--no-report", "--out", tmp.resolve("r" + run++).toString()));
            var r = CliTest.run(argv.toArray(String[]::new));
            assertEquals(5, r.code(), extra + ": " + r.err());
            assertTrue(r.err().contains("127.0.0.1:1"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
        // https to a port that speaks plain HTTP: the target is there, but not as the URL says.
        EngineConfig engine = EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"));
        try (SimServer s = SimServer.start(SimServer.Config.loopback(engine))) {
            String https = s.baseUri().toString().replace("http://", "https://");
            var r = CliTest.run(
                    "probe",
                    "--url",
                    https,
                    "--requests",
                    "2",
                    "--no-report",
                    "--out",
                    tmp.resolve("tls").toString());
            assertEquals(5, r.code(), r.err());
            assertTrue(r.err().contains("not HTTP as the URL says"), r.err());
        }
    }
}
