package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * A commented starter config ({@code --config} file) for a target and a workload preset shipped in configs/presets.
 *
 * @param url the server, or null for the embedded simulator
 * @param model the model to ask for, or null for the server's first
 */
public record StarterConfig(String url, String model, String api, String preset) {
    /** The presets a starter config may start from. */
    public static final List<String> PRESETS = List.of("chat", "rag", "batch-summarization");

    /** Validates every value, naming the bad one. */
    public StarterConfig {
        if (!PRESETS.contains(preset)) {
            throw new BadInputException(
                    "bad --preset '" + preset + "': valid values are " + String.join(", ", PRESETS));
        }
        if (!api.equals("chat") && !api.equals("completions")) {
            throw new BadInputException("bad --api '" + api + "': valid values are chat, completions");
        }
        if (url != null && !(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new BadInputException("bad --url '" + url + "': give an http:// or https:// base URL");
        }
    }

    /** Writes the file {@code out}, which must not exist yet (nothing is overwritten). */
    public void write(Path out) {
        if (Files.exists(out))
            throw new BadInputException("--out " + out + " exists; give a new file name (nothing overwritten)");
        try {
            Files.writeString(out, text(out.getFileName().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /** The file's text; {@code name} is how its usage lines call it. */
    public String text(String name) {
        return "# Headroom configuration for " + (url == null ? "the embedded simulator" : url)
                + ", written by `headroom init` on " + LocalDate.now() + ".\n"
                + "# Use it with any command; flags on the command line override what is here:\n"
                + "#   ./headroom probe  --config " + name + "\n"
                + "#   ./headroom search --config " + name + "\n"
                + "# Keys are the commands' long options without the dashes (./headroom COMMAND --help lists them);\n"
                + "# keys under a command's name (search:, sweep:) apply to that command only.\n\n"
                + "# Target. Without url the embedded simulator is measured.\n"
                + (url == null ? "# url: http://localhost:8000\n" : "url: " + url + "\n")
                + (model == null
                        ? "# model: meta-llama/Llama-3.1-8B-Instruct   # default: the first model the server lists\n"
                        : "model: " + model + "\n")
                + "api: " + api + "\n"
                + "# The API key is read from this environment variable (or api-key-file), never from this file.\n"
                + "api-key-env: OPENAI_API_KEY\n\n"
                + "# Workload and SLOs: the " + preset + " preset (configs/presets/" + preset + ".yaml).\n"
                + presetText(preset);
    }

    /** A preset as shipped in the jar (configs/presets/NAME.yaml). */
    static String presetText(String name) {
        try (InputStream in =
                StarterConfig.class.getClassLoader().getResourceAsStream("configs/presets/" + name + ".yaml")) {
            if (in == null) throw new IllegalStateException("preset " + name + " is not in the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
