package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** cli imports only the entry points docs/architecture.md lists under "What `cli` may use", and uses every one. */
class CliImportsTest {
    private static final Path DOC = Path.of("..", "docs", "architecture.md");
    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Pattern IMPORT =
            Pattern.compile("^import (dev\\.headroom\\.(?!cli\\.)[\\w.]+);", Pattern.MULTILINE);

    @Test
    void cliImportsOnlyTheDocumentedEntryPoints() throws IOException {
        Set<String> allowed = documented();
        assertTrue(allowed.size() > 20, "the list was read: " + allowed);
        Set<String> used = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = IMPORT.matcher(Files.readString(f));
                while (m.find()) {
                    used.add(m.group(1));
                    assertTrue(
                            allowed.contains(m.group(1)),
                            f + " imports " + m.group(1) + ", which docs/architecture.md does not list for cli");
                }
            }
        }
        assertEquals(allowed, used, "every listed entry point is one cli uses (a stale list misleads)");
    }

    /** The fully qualified names the doc's list gives, e.g. {@code dev.headroom.runner.Searcher}. */
    private static Set<String> documented() throws IOException {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("## What `cli` may use");
        String section = doc.substring(start, doc.indexOf("\n## ", start + 1));
        Set<String> out = new TreeSet<>();
        Matcher line = Pattern.compile("(?m)^- (\\w+)[^:]*:((?:.|\\n  )*)").matcher(section);
        while (line.find()) {
            Matcher name = Pattern.compile("`([\\w.]+)`").matcher(line.group(2));
            while (name.find()) out.add("dev.headroom." + line.group(1) + "." + name.group(1));
        }
        return out;
    }
}
