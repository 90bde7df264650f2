package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every option of every command is in its reference page (docs/COMMAND.md, or docs/cli.md for shared ones). */
class OptionDocsTest {
    private static final Path DOCS = Path.of("..", "docs");
    /** Commands whose reference lives on a page named otherwise. */
    private static final Map<String, String> PAGE =
            Map.of("plan", "planning", "compare", "planning", "sim", "simulator", "pareto", "configure");
    /** Commands whose page sends the reader to probe's for the target, load, workload and simulator options. */
    private static final List<String> PROBE_OPTIONS = List.of("sweep", "search", "calibrate", "configure");

    @Test
    void everyOptionIsDocumented() throws IOException {
        String shared = Files.readString(DOCS.resolve("cli.md"));
        List<String> missing = new ArrayList<>();
        for (var e : new CommandLine(new HeadroomCommand()).getSubcommands().entrySet()) {
            String command = e.getKey();
            Path page = DOCS.resolve(PAGE.getOrDefault(command, command) + ".md");
            String text = (Files.isRegularFile(page) ? Files.readString(page) : "")
                    + (PROBE_OPTIONS.contains(command) ? Files.readString(DOCS.resolve("probe.md")) : "");
            for (OptionSpec o : e.getValue().getCommandSpec().options()) {
                String name = o.longestName();
                if (name.equals("--help") || name.equals("--version")) continue;
                String bare = name.substring(2);
                List<String> spellings =
                        o.negatable() ? List.of(name, "--no-" + bare, "--[no-]" + bare) : List.of(name);
                if (spellings.stream().noneMatch(n -> mentions(text, n) || mentions(shared, n))) {
                    missing.add(command + " " + name);
                }
            }
        }
        assertTrue(missing.isEmpty(), "options not in docs/: " + missing);
    }

    /** The option as a whole word: {@code --isl} is not found inside {@code --isl-dist}. */
    private static boolean mentions(String text, String option) {
        return text.matches("(?s).*" + Pattern.quote(option) + "(?![a-z-]).*");
    }
}
