package dev.headroom.cli;

import java.util.Map;
import picocli.CommandLine;

/** The simulator's options as scripts spell them without the {@code --sim-} prefix ({@code --hardware}, …). */
final class SimulatorAliases {
    private SimulatorAliases() {}

    /** The spellings without the prefix that scripts use, each with the option it means; help shows only the latter. */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("--hardware", "--sim-hardware"),
            Map.entry("--tp", "--sim-tp"),
            Map.entry("--max-num-seqs", "--sim-max-num-seqs"),
            Map.entry("--max-num-batched-tokens", "--sim-max-num-batched-tokens"),
            Map.entry("--gpu-memory-utilization", "--sim-gpu-memory-utilization"),
            Map.entry("--max-waiting", "--sim-max-waiting"),
            Map.entry("--noise", "--sim-noise"),
            Map.entry("--stall-probability", "--sim-stall-probability"),
            Map.entry("--stall-ms", "--sim-stall-ms"),
            Map.entry("--eos-length", "--sim-eos-length"),
            Map.entry("--prefix-caching", "--sim-prefix-caching"),
            Map.entry("--no-prefix-caching", "--no-sim-prefix-caching"),
            Map.entry("--kv-cache-dtype", "--sim-kv-cache-dtype"));

    /**
     * {@code args} with every alias spelled as its {@code --sim-*} option, when the command named takes the
     * simulator's options (to any other command an alias stays what it is: an unknown option).
     */
    static String[] canonical(CommandLine root, String[] args) {
        for (int i = 0; i < args.length; i++) {
            CommandLine command = root.getSubcommands().get(args[i]);
            if (command == null) continue;
            if (command.getCommandSpec().findOption("--sim-hardware") == null) return args;
            String[] out = args.clone();
            for (int j = i + 1; j < out.length; j++) {
                int eq = out[j].indexOf('=');
                String canonical = ALIASES.get(eq < 0 ? out[j] : out[j].substring(0, eq));
                if (canonical != null) out[j] = canonical + (eq < 0 ? "" : out[j].substring(eq));
            }
            return out;
        }
        return args;
    }

    /** The option a config-file key or an alias names: {@code hardware} is {@code --sim-hardware}. */
    static String canonical(String option) {
        return ALIASES.getOrDefault(option, option);
    }
}
