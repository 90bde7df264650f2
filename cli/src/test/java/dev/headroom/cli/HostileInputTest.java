package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
            """)
    void isRefusedInOneLineNamingTheValue(String what, String args, String message, @TempDir Path tmp) {
        Path out = tmp.resolve("out");
        List<String> argv = new ArrayList<>(List.of(args.strip().split(" ")));
        argv.addAll(List.of("--out", out.toString()));
        var r = CliTest.run(argv.toArray(String[]::new));
        assertEquals(2, r.code(), what + ": " + r.err());
        assertTrue(r.err().contains(message.strip()), what + ": " + r.err());
        assertEquals(
                1, r.err().strip().lines().filter(l -> !l.startsWith("Try ")).count(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out), what + ": nothing written");
    }
}
