package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConfigFileTest {
    private static final Path PRESETS = Path.of("..", "configs", "presets");

    /** Parses (does not run) a command with a config file; returns the parsed subcommand object. */
    private static Object parse(String... args) {
        CommandLine cl = Main.commandLine();
        CommandLine.ParseResult r = cl.parseArgs(ConfigFile.expand(cl, args));
        return r.subcommand().commandSpec().userObject();
    }

    @Test
    void everyPresetInConfigsLoadsForProbeSweepAndSearch() throws IOException {
        try (Stream<Path> files = Files.list(PRESETS)) {
            List<Path> presets =
                    files.filter(p -> p.toString().endsWith(".yaml")).toList();
            assertEquals(3, presets.size());
            for (Path p : presets) {
                for (String command : List.of("probe", "sweep", "search")) {
                    Object o = parse(command, "--config", p.toString());
                    assertTrue(o != null, p + " " + command);
                }
                SearchCommand s = (SearchCommand) parse("search", "--config", p.toString());
                assertTrue(!s.search.slos.isEmpty(), p.toString());
                s.workload.toSpec(); // lengths validate
            }
        }
        SearchCommand chat = (SearchCommand)
                parse("search", "--config", PRESETS.resolve("chat.yaml").toString());
        assertEquals(List.of("ttft:p99<200ms", "itl:p99<50ms", "error_rate<1%"), chat.search.slos);
        assertEquals("max-concurrency", chat.search.objective);
        SearchCommand batch = (SearchCommand) parse(
                "search",
                "--config",
                PRESETS.resolve("batch-summarization.yaml").toString());
        assertEquals("max-goodput", batch.search.objective);
        assertEquals("tokens", batch.search.goodputUnit);
    }

    @Test
    void flagsOnTheCommandLineOverrideTheFile() {
        Path chat = PRESETS.resolve("chat.yaml");
        SearchCommand s = (SearchCommand) parse(
                "search",
                "--config",
                chat.toString(),
                "--objective",
                "max-rate",
                "--slo",
                "e2e:p99<10s",
                "--isl",
                "64");
        assertEquals("max-rate", s.search.objective);
        assertEquals(List.of("e2e:p99<10s"), s.search.slos, "a list on the command line replaces the file's");
        assertEquals(64, s.workload.isl);
        assertEquals(256, s.workload.osl, "the rest still comes from the file");
    }

    @Test
    void badKeysAndValuesNameThemselves(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("c.yaml");
        Files.writeString(f, "isl: 512\nconcurency: 8\n");
        var r = CliTest.run("probe", "--config", f.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown key 'concurency'") && r.err().contains("concurrency"), r.err());
        Files.writeString(f, "isl: lots\n");
        var v = CliTest.run("probe", "--config", f.toString());
        assertEquals(2, v.code());
        assertTrue(v.err().contains("--isl") && v.err().contains("lots"), v.err());
        Files.writeString(f, "search:\n  bogus: 1\n");
        var s = CliTest.run("search", "--config", f.toString(), "--slo", "ttft:p95<1s");
        assertEquals(2, s.code());
        assertTrue(s.err().contains("search.bogus"), s.err());
        assertEquals(
                2,
                CliTest.run("probe", "--config", tmp.resolve("none.yaml").toString())
                        .code());
        // Keys of other commands are fine at the top level: a file can serve several commands.
        Files.writeString(f, "objective: max-rate\nisl: 100\n");
        assertEquals(100, ((ProbeCommand) parse("probe", "--config", f.toString())).workload.isl);
    }

    @Test
    void initWritesAStarterConfigThatLoads(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("headroom.yaml");
        var r = CliTest.run(
                "init",
                "--url",
                "http://gpu-box:8000",
                "--model",
                "meta-llama/Llama-3.1-70B-Instruct",
                "--preset",
                "rag",
                "--out",
                f.toString());
        assertEquals(0, r.code(), r.err());
        String text = Files.readString(f);
        assertTrue(
                text.contains("url: http://gpu-box:8000") && text.contains("# ") && text.contains("ttft:p95<2s"), text);
        ProbeCommand p = (ProbeCommand) parse("probe", "--config", f.toString());
        assertEquals("http://gpu-box:8000", p.target.url);
        assertEquals(4096, p.workload.isl);
        assertTrue(parse("sweep", "--config", f.toString()) instanceof SweepCommand);
        assertEquals(2, CliTest.run("init", "--out", f.toString()).code(), "never overwrites");
        assertEquals(
                2,
                CliTest.run(
                                "init",
                                "--preset",
                                "gaming",
                                "--out",
                                tmp.resolve("x.yaml").toString())
                        .code());
    }
}
