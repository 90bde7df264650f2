package dev.headroom.cli;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
import dev.headroom.model.Nearest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --config FILE.yaml}: a command's options from a file. Keys are the options' long names without dashes
 * ({@code concurrency: 8}, {@code slo: [ttft:p95<200ms, ...]}, {@code ignore-eos: true}); top-level keys apply to every
 * command that has that option, keys under a command's name ({@code search: {objective: max-goodput}}) to that
 * command only. Flags on the command line override the file (a list given on the command line replaces the file's).
 * The file is turned into arguments before picocli parses, so a value is validated exactly as a flag would be.
 */
final class ConfigFile {
    /** A key given twice is an error, not "the last one wins". */
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    private ConfigFile() {}

    /** The arguments with the config file's options inserted after the command name (unchanged without --config). */
    static String[] expand(CommandLine root, String[] args) {
        String file = configArg(args);
        if (file == null) return args;
        int at = -1;
        for (int i = 0; i < args.length; i++) {
            if (root.getSubcommands().containsKey(args[i])) {
                at = i;
                break;
            }
        }
        if (at < 0)
            throw new BadInputException(
                    "--config " + file + ": name the command it is for, e.g. headroom probe --config " + file);
        String command = args[at];
        CommandSpec spec = root.getSubcommands().get(command).getCommandSpec();
        JsonNode config = read(Path.of(file));
        List<String> extra = new ArrayList<>();
        var fields = config.properties();
        for (Map.Entry<String, JsonNode> e : fields) {
            String key = e.getKey();
            if (root.getSubcommands().containsKey(key)) {
                if (!e.getValue().isObject()) {
                    throw new BadInputException(
                            "--config " + file + ": '" + key + "' must hold the options of headroom " + key);
                }
                // Every command's section is checked, not only this command's: a misspelt key under search: is
                // named when the file is first used, by whichever command.
                CommandSpec section = root.getSubcommands().get(key).getCommandSpec();
                for (Map.Entry<String, JsonNode> s : e.getValue().properties()) {
                    OptionSpec o = option(section, s.getKey());
                    if (o == null) throw unknown(file, key + "." + s.getKey(), key, section);
                    if (key.equals(command)) add(extra, o, s.getValue(), args, file, key + "." + s.getKey());
                }
                continue;
            }
            OptionSpec o = option(spec, key);
            if (o == null) {
                if (root.getSubcommands().values().stream().anyMatch(c -> option(c.getCommandSpec(), key) != null))
                    continue;
                throw unknown(file, key, command, spec);
            }
            add(extra, o, e.getValue(), args, file, key);
        }
        List<String> out = new ArrayList<>(Arrays.asList(args).subList(0, at + 1));
        out.addAll(extra);
        out.addAll(Arrays.asList(args).subList(at + 1, args.length));
        return out.toArray(String[]::new);
    }

    private static String configArg(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) return args[i + 1];
            if (args[i].startsWith("--config=")) return args[i].substring("--config=".length());
        }
        return null;
    }

    private static OptionSpec option(CommandSpec spec, String key) {
        if (key.equals("config") || key.equals("help") || key.equals("version")) return null;
        return spec.findOption(SimulatorAliases.canonical("--" + key));
    }

    /** The option's arguments from a YAML value, unless the command line sets that option itself. */
    private static void add(List<String> out, OptionSpec o, JsonNode value, String[] args, String file, String key) {
        for (String a : args) {
            for (String name : o.names()) if (a.equals(name) || a.startsWith(name + "=")) return;
        }
        String name = o.longestName();
        if (o.arity().max() == 0) {
            if (!value.isBoolean()) throw bad(file, key, value, "true or false");
            if (value.asBoolean()) out.add(name);
            return;
        }
        if (value.isArray()) {
            if (!o.isMultiValue()) throw bad(file, key, value, "a single value");
            for (JsonNode v : value) out.addAll(List.of(name, scalar(v, file, key)));
            return;
        }
        out.addAll(List.of(name, scalar(value, file, key)));
    }

    private static String scalar(JsonNode v, String file, String key) {
        if (!v.isValueNode() || v.isNull()) throw bad(file, key, v, "a value");
        return v.asText();
    }

    private static BadInputException bad(String file, String key, JsonNode value, String valid) {
        return new BadInputException("--config " + file + ": key '" + key + "' has " + value + "; it takes " + valid);
    }

    private static BadInputException unknown(String file, String key, String command, CommandSpec spec) {
        TreeSet<String> keys = new TreeSet<>();
        for (OptionSpec o : spec.options()) {
            String n = o.longestName().replaceFirst("^--", "");
            if (!n.equals("config") && !n.equals("help") && !n.equals("version")) keys.add(n);
        }
        String last = key.substring(key.lastIndexOf('.') + 1);
        return new BadInputException("--config " + file + ": unknown key '" + key + "' for headroom " + command
                + (Nearest.to(last, keys).isEmpty()
                        ? "; valid keys: " + String.join(", ", keys)
                        : Nearest.didYouMean(last, keys, "'")));
    }

    private static JsonNode read(Path file) {
        if (Files.isDirectory(file)) {
            throw new BadInputException("--config " + file + ": is a directory; give a YAML file, e.g. "
                    + "configs/presets/chat.yaml or one written by headroom init");
        }
        if (!Files.isRegularFile(file)) throw new BadInputException("--config " + file + ": no such file");
        try {
            JsonNode n = YAML.readTree(file.toFile());
            if (n == null || n.isMissingNode()) return YAML.createObjectNode();
            if (!n.isObject())
                throw new BadInputException("--config " + file + ": expected a YAML mapping of option: value");
            return n;
        } catch (IOException e) {
            throw new BadInputException("--config " + file + ": " + IoReason.parsing(e, "YAML"));
        }
    }
}
