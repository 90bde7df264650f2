package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CliTest {

    /** Runs the command line and captures what it printed. */
    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = Main.execute(cl, args);
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * A short search in two-turn sessions on a simulator with two slots, which saturates at a few sessions: its three
     * probes (1, 8, then between) bracket the boundary in some 20 s.
     */
    static Run twoSlotSessionSearch(Path out, String slo) {
        return run(
                "search",
                "--load-unit",
                "sessions",
                "--turns",
                "2",
                "--turn-isl",
                "64",
                "--turn-osl",
                "16",
                "--slo",
                slo,
                "--sim-max-num-seqs",
                "2",
                "--min",
                "1",
                "--max",
                "16",
                "--max-probes",
                "3",
                "--probe-duration",
                "4s",
                "--no-report",
                "--out",
                out.toString());
    }

    @Test
    void helpListsTheCommandsAndExitCodes() {
        Run r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("sim"), r.out());
        assertTrue(r.out().contains("Exit codes"), r.out());
    }

    @Test
    void unknownHardwareListsTheValidNamesAndExitsTwo() {
        Run r = run("sim", "--hardware", "tpu-v9");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("tpu-v9") && r.err().contains("h100-sxm"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void modelThatDoesNotFitIsBadInput() {
        Run r = run("sim", "--hardware", "l4", "--model", "llama-3.1-70b");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("raise --sim-tp"), r.err());
    }

    @Test
    void everyCommandSpellsTheSimulatorTheSameWayWithTheOldNamesAsAliases() {
        // --sim-* on the measuring commands; sim's own spellings (--hardware, --tp) accepted there too.
        Run probe = run("probe", "--sim-hardware", "l4", "--sim-model", "llama-3.1-70b", "--requests", "1");
        assertEquals(2, probe.code());
        assertTrue(
                probe.err().contains("raise --sim-tp"),
                "the library's {tp} spelled as this command's option: " + probe.err());
        Run alias = run("probe", "--hardware", "tpu-v9", "--requests", "1");
        assertEquals(2, alias.code());
        assertTrue(alias.err().contains("tpu-v9") && alias.err().contains("h100-sxm"), alias.err());
        // and sim takes --sim-* as well as its old names.
        Run sim = run("sim", "--sim-hardware", "l4", "--model", "llama-3.1-70b");
        assertEquals(2, sim.code());
        assertTrue(sim.err().contains("--sim-tp"), sim.err());
        // Help shows one vocabulary; an alias is no option of a command without a simulator.
        String help = run("probe", "--help").out();
        assertTrue(help.contains("--sim-hardware") && !help.contains("--hardware"), help);
        Run init = run("init", "--hardware", "l4", "--out", "never-written.yaml");
        assertEquals(2, init.code());
        assertTrue(init.err().contains("--hardware"), init.err());
    }

    @Test
    void aConfigFileMayUseTheOldSimulatorSpellings(@TempDir Path tmp) throws IOException {
        Path config = tmp.resolve("old.yaml");
        Files.writeString(config, "hardware: tpu-v9\ntp: 2\n");
        Run r = run("probe", "--config", config.toString(), "--requests", "1");
        assertEquals(2, r.code());
        assertTrue(
                r.err().contains("tpu-v9") && r.err().contains("h100-sxm"),
                "the key reached --sim-hardware: " + r.err());
    }

    @Test
    void badOptionValuesAreUsageErrors() {
        assertEquals(2, run("sim", "--bogus").code());
        assertEquals(2, run("sim", "--port", "eighty").code());
        Run f = run("sim", "--fault", "meteor=0.5");
        assertEquals(2, f.code());
        assertTrue(f.err().contains("meteor") && f.err().contains("reset"), f.err());
        Run d = run("sim", "--fault-stall", "soon");
        assertEquals(2, d.code());
        assertTrue(d.err().contains("soon"), d.err());
        assertEquals(2, run("sim", "--eos-length", "normal:abc").code());
        assertEquals(2, run("sim", "--port", "70000").code());
    }

    @Test
    void simServesUntilInterrupted() throws Exception {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        AtomicInteger code = new AtomicInteger(-1);
        Thread t = new Thread(() -> code.set(cl.execute("sim", "--port", "0", "--sim-noise", "0")));
        t.start();
        Pattern url = Pattern.compile("serving at (http://\\S+)/v1");
        Matcher m = url.matcher("");
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!(m = url.matcher(out.toString())).find() && System.nanoTime() < deadline) Thread.sleep(20);
        assertTrue(m.find(0), out.toString());
        String base = m.group(1);
        try (HttpClient http = HttpClient.newHttpClient()) {
            var body = "{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"prompt\":\"hi\",\"max_tokens\":3,"
                    + "\"ignore_eos\":true}";
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/v1/completions"))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("\"completion_tokens\":3"), r.body());
        }
        t.interrupt();
        t.join(10_000);
        assertFalse(t.isAlive());
        assertEquals(ExitCodes.INTERRUPTED, code.get());
    }
}
