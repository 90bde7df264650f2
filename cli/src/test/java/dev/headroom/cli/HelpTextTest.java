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
