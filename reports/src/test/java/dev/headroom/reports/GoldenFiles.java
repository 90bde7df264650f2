package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Compares output with a committed golden file; {@code -Dgolden.update=true} rewrites the file instead. */
final class GoldenFiles {
    private static final Path DIR = Path.of("src", "test", "resources", "golden");

    private GoldenFiles() {}

    static void assertMatches(String name, String actual) throws IOException {
        Path file = DIR.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(DIR);
            Files.writeString(file, actual);
            return;
        }
        if (!Files.exists(file))
            fail("no golden file " + file + "; run the test with -Dgolden.update=true and review it");
        assertEquals(
                Files.readString(file),
                actual,
                "output differs from " + file
                        + " (a schema change must bump the version and update the golden file and docs/)");
    }
}
