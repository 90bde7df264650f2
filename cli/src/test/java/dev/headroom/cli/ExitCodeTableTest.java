package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/cli.md's exit-code table, row by row, through the real commands: each case gives its code and a stderr line
 * naming the value or the reason. {@code $TMP} is a scratch directory holding {@code file} (a plain file), {@code dir}
 * (a directory) and {@code plan-typo.yaml}; {@code $DOWN} is a port nothing listens on, {@code $PLAIN} a plain-HTTP
 * server, {@code $REFUSING} one that answers 401 to everything. Codes no command line can provoke in-process are
 * covered where named in {@link #ELSEWHERE}, and a table row with neither fails {@link #everyRowOfTheTableHasACase}.
 */
class ExitCodeTableTest {
    private static HttpServer plain;
    private static HttpServer refusing;
    private static int down;

    private static final String OUT_OF_MEMORY = "ExitCodesTest.runningOutOfMemoryIsOneLineAndItsOwnExitCode;"
            + " HostileInputTest: inputs that once ran out of memory are exit 2";

    /** Rows tested elsewhere, and where. */
    private static final java.util.Map<Integer, String> ELSEWHERE = java.util.Map.of(
            1, "ExitCodesTest.anyOtherIllegalArgumentIsABugNotBadInput (a bug has no command line)",
            6, OUT_OF_MEMORY,
            7, "WorkersCommandTest (a worker killed midway)");

    @BeforeAll
    static void servers() throws IOException {
        plain = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        plain.createContext("/", x -> answer(x, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}"));
        plain.start();
        refusing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        refusing.createContext("/", x -> answer(x, 401, "{\"error\":{\"message\":\"invalid api key\"}}"));
        refusing.start();
        try (ServerSocket s = new ServerSocket(0)) {
            down = s.getLocalPort();
        }
    }

    private static void answer(com.sun.net.httpserver.HttpExchange x, int code, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(code, b.length);
        try (OutputStream o = x.getResponseBody()) {
            o.write(b);
        }
    }

    @AfterAll
    static void stop() {
        plain.stop(0);
        refusing.stop(0);
    }

    private static CliTest.Run run(Path tmp, String args) throws IOException {
        Files.writeString(tmp.resolve("file"), "a plain file\n");
        Files.createDirectories(tmp.resolve("dir"));
        Files.writeString(
                tmp.resolve("plan-typo.yaml"),
                Files.readString(Path.of("..", "configs", "plan", "policy.yaml"))
                        .replaceFirst("utilization_target", "utilisation_target"));
        List<String> argv = new ArrayList<>();
        for (String a : args.strip().split(" +")) {
            argv.add(a.replace("$TMP", tmp.toString())
                    .replace("$DOWN", String.valueOf(down))
                    .replace("$PLAIN", String.valueOf(plain.getAddress().getPort()))
                    .replace("$REFUSING", String.valueOf(refusing.getAddress().getPort()))
                    .replace("$PLAN", Path.of("..", "configs", "plan").toString()));
        }
        return CliTest.run(argv.toArray(String[]::new));
    }

    @ParameterizedTest(name = "exit {0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0 | success | probe --virtual --requests 2 --osl 4 --no-report --out $TMP/out | \
            run directory:
            2 | an unknown option | probe --virtual --concurency 4 --out $TMP/out | \
            unknown option '--concurency'; did you mean --concurrency?
            2 | a value out of range | probe --virtual --requests 0 --out $TMP/out | --requests must be >= 1, got 0
            2 | an unknown profile name | probe --virtual --sim-hardware h1OO --requests 2 --out $TMP/out | \
            unknown hardware profile 'h1OO': valid names are
            2 | a missing dataset | probe --virtual --dataset $TMP/none.jsonl --requests 2 --out $TMP/out | \
            none.jsonl
            2 | a missing key file | probe --virtual --api-key-file $TMP/none.key --requests 2 --out $TMP/out | \
            none.key
            2 | a directory as --config | probe --virtual --config $TMP/dir --out $TMP/out | $TMP/dir
            2 | an unknown key in a plan file | plan --forecast $PLAN/forecast.yaml --catalog $PLAN/catalog.yaml \
            --capacity $PLAN/capacities.yaml --policy $TMP/plan-typo.yaml --out $TMP/out | \
            did you mean 'utilization_target'?
            2 | an existing file as --out | probe --virtual --requests 2 --out $TMP/file | is a file
            2 | nothing to read for rebuild | rebuild $TMP/dir | $TMP/dir
            3 | --out under a plain file | probe --virtual --requests 2 --out $TMP/file/run | not a directory
            3 | --out where nothing can be made | probe --virtual --requests 2 --out /proc/headroom-run | \
            no such file or directory
            5 | nothing listening, model given | \
            probe --url http://127.0.0.1:$DOWN --model m --requests 2 --out $TMP/out | 127.0.0.1:$DOWN
            5 | nothing listening, model asked | probe --url http://127.0.0.1:$DOWN --requests 2 --out $TMP/out | \
            127.0.0.1:$DOWN
            5 | https to a port that never answers the handshake | probe --url https://127.0.0.1:$PLAIN --model m \
            --requests 2 --connect-timeout 1s --out $TMP/out | the TLS handshake got no answer within 1000 ms
            5 | a server refusing every request | probe --url http://127.0.0.1:$REFUSING --model m --requests 10 \
            --concurrency 2 --out $TMP/out | invalid api key
            8 | a CI gate failed | probe --virtual --requests 4 --osl 4 --slo ttft:p95<1ms --fail-on-slo \
            --no-report --out $TMP/out | gate failed:
            """)
    void exitsAsTheTableSays(int code, String what, String args, String message, @TempDir Path tmp) throws IOException {
        var r = run(tmp, args);
        String expected = message.strip()
                .replace("$TMP", tmp.toString())
                .replace("$DOWN", String.valueOf(down))
                .replace("$PLAIN", String.valueOf(plain.getAddress().getPort()));
        String all = r.out() + r.err();
        assertEquals(code, r.code(), what + ": " + all);
        assertTrue(all.toLowerCase(Locale.ROOT).contains(expected.toLowerCase(Locale.ROOT)), what + ": " + all);
        assertFalse(all.contains("Exception") || all.contains("\tat "), what + ": no stack trace: " + all);
        if (code == 2 || code == 3) assertEquals(1, r.err().strip().lines().count(), what + ": one line: " + r.err());
    }

    /** Permission denied is the I/O error with its reason; root reads and writes anything, so this runs as a user. */
    @Test
    void aPermissionDeniedIsAnIoErrorThatSaysSo(@TempDir Path tmp) throws IOException {
        assumeFalse(
                "root".equals(System.getProperty("user.name")),
                "root is never denied a file, so there is nothing to test");
        Path locked = tmp.resolve("locked");
        Files.createDirectories(locked);
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        var r = run(tmp, "probe --virtual --requests 2 --out " + locked.resolve("run"));
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().toLowerCase(Locale.ROOT).contains("permission denied"), r.err());
        Path unreadable = tmp.resolve("key");
        Files.writeString(unreadable, "sk-secret\n");
        Files.setPosixFilePermissions(unreadable, PosixFilePermissions.fromString("---------"));
        var k = run(tmp, "probe --virtual --requests 2 --api-key-file " + unreadable + " --out " + tmp.resolve("o"));
        assertEquals(3, k.code(), k.err());
        assertTrue(k.err().toLowerCase(Locale.ROOT).contains("permission denied"), k.err());
    }

    /**
     * The launcher with no Java it can use: a copy of ./headroom asking for a Java no machine has (999), so every JVM
     * it finds is too old — exit 4 and one line saying what to install.
     */
    @Test
    void aLauncherWithoutASuitableJavaExits4(@TempDir Path tmp) throws Exception {
        String launcher = Files.readString(Path.of("..", "headroom"));
        assertTrue(launcher.contains("required=25"), "the launcher names the Java it needs");
        Files.writeString(tmp.resolve("headroom"), launcher.replace("required=25", "required=999"));
        Files.createDirectories(tmp.resolve(".mvn"));
        Files.copy(Path.of("..", ".mvn", "find-java.sh"), tmp.resolve(".mvn").resolve("find-java.sh"));
        Process p = new ProcessBuilder("bash", tmp.resolve("headroom").toString(), "probe")
                .redirectErrorStream(true)
                .start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(4, p.exitValue(), said);
        assertTrue(said.contains("needs Java 999 or newer"), said);
        assertEquals(1, said.strip().lines().count(), said);
    }

    /**
     * Ctrl-C: the JVM's own 130, after the run has written what it measured. On the real clock: a virtual run writes
     * its requests when the whole run is simulated, so a signal after the first line could land after the run ended.
     */
    @Test
    void anInterruptedRunExits130WithEveryFinishedRequestWritten(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Process p = ProbeCommandTest.headroom(
                List.of("probe", "--duration", "60s", "--concurrency", "4", "--osl", "16", "--out", out.toString()),
                tmp.resolve("stderr"));
        Path jsonl = out.resolve("requests.jsonl");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((!Files.exists(jsonl) || Files.size(jsonl) == 0) && System.nanoTime() < deadline) Thread.sleep(100);
        assertTrue(Files.exists(jsonl), "the run started: " + Files.readString(tmp.resolve("stderr")));
        new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the run stopped on Ctrl-C");
        assertEquals(130, p.exitValue(), Files.readString(tmp.resolve("stderr")));
        for (String line : Files.readAllLines(jsonl)) {
            assertTrue(line.startsWith("{") && line.endsWith("}"), "every line whole: " + line);
        }
    }

    /** Every code in docs/cli.md's table has a case above or is named in {@link #ELSEWHERE}. */
    @Test
    void everyRowOfTheTableHasACase() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "cli.md"));
        String table = doc.substring(doc.indexOf("## Exit codes"), doc.indexOf("## CI gates"));
        Set<Integer> rows = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\| (\\d+) \\|").matcher(table);
        while (m.find()) rows.add(Integer.parseInt(m.group(1)));
        assertTrue(rows.size() >= 10, "the table was read: " + rows);
        Set<Integer> covered = new TreeSet<>(Set.of(0, 2, 3, 4, 5, 8, 130));
        covered.addAll(ELSEWHERE.keySet());
        assertEquals(rows, covered, "rows of docs/cli.md's exit-code table and the cases that test them");
    }
}
