package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.ResourceBundle;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Help.properties and the options agree: every option has help text, every key there belongs to an option. */
class HelpTextTest {
    private final CommandLine root = new CommandLine(new HeadroomCommand());

    @Test
    void everyOptionOfEveryCommandHasHelpText() {
        List<String> bare = new ArrayList<>();
        for (var e : root.getSubcommands().entrySet()) {
            for (OptionSpec o : e.getValue().getCommandSpec().options()) {
                if (String.join(" ", o.description()).isBlank()) bare.add(e.getKey() + " " + o.longestName());
            }
        }
        assertTrue(bare.isEmpty(), "options without help text: " + bare);
    }

    /** A bare % in a description makes picocli print its raw text with a warning on stderr; %% is a percent sign. */
    @Test
    void everyCommandsHelpFormatsWithoutAWarning() {
        java.io.PrintStream old = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        List<String> warned = new ArrayList<>();
        try {
            for (var e : root.getSubcommands().entrySet()) {
                int before = err.size();
                String usage = e.getValue().getUsageMessage();
                if (err.size() > before || usage.contains("%n")) warned.add(e.getKey());
            }
        } finally {
            System.setErr(old);
        }
        assertTrue(warned.isEmpty(), "help that does not format: " + warned + "\n" + err);
    }

    @Test
    void everyHelpKeyBelongsToAnOption() {
        Set<String> used = new HashSet<>();
        for (var e : root.getSubcommands().entrySet()) {
            for (OptionSpec o : e.getValue().getCommandSpec().options()) {
                String name = o.longestName().replaceFirst("^--", "");
                used.add(name);
                used.add("headroom." + e.getKey() + "." + name);
                if (!o.descriptionKey().isEmpty()) used.add(o.descriptionKey());
            }
        }
        ResourceBundle help = ResourceBundle.getBundle("dev.headroom.cli.Help");
        List<String> orphans =
                help.keySet().stream().filter(k -> !used.contains(k)).sorted().toList();
        assertTrue(orphans.isEmpty(), "keys in Help.properties no option has: " + orphans);
    }
}
