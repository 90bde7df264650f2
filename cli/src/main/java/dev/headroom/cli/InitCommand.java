package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom init}: a commented starter config for the target a user names. */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description =
                "Write a commented starter config (for --config) for a target and a workload preset: chat, rag or "
                        + "batch-summarization, with SLOs from public guidance.")
public final class InitCommand implements Callable<Integer> {
    static final List<String> PRESETS = List.of("chat", "rag", "batch-summarization");

    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "The server to measure (default: none, the embedded simulator).")
    String url;

    @Option(
            names = "--model",
            paramLabel = "NAME",
            description = "The model to ask for (default: the first the server lists).")
    String model;

    @Option(
            names = "--api",
            paramLabel = "chat|completions",
            defaultValue = "chat",
            description = "API (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(
            names = "--preset",
            paramLabel = "chat|rag|batch-summarization",
            defaultValue = "chat",
            description = "Workload and SLOs to start from (default: ${DEFAULT-VALUE}).")
    String preset;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            defaultValue = "headroom.yaml",
            description = "File to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() {
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
        if (Files.exists(out))
            throw new BadInputException("--out " + out + " exists; give a new file name (nothing overwritten)");
        StringBuilder b = new StringBuilder();
        b.append("# Headroom configuration for ")
                .append(url == null ? "the embedded simulator" : url)
                .append(", written by `headroom init` on ")
                .append(LocalDate.now())
                .append(".\n")
                .append("# Use it with any command; flags on the command line override what is here:\n")
                .append("#   ./headroom probe  --config ")
                .append(out.getFileName())
                .append("\n")
                .append("#   ./headroom search --config ")
                .append(out.getFileName())
                .append("\n")
                .append("# Keys are the commands' long options without the dashes (./headroom COMMAND --help lists "
                        + "them);\n")
                .append("# keys under a command's name (search:, sweep:) apply to that command only.\n\n")
                .append("# Target. Without url the embedded simulator is measured.\n")
                .append(url == null ? "# url: http://localhost:8000\n" : "url: " + url + "\n")
                .append(
                        model == null
                                ? "# model: meta-llama/Llama-3.1-8B-Instruct   # default: the first model the server "
                                        + "lists\n"
                                : "model: " + model + "\n")
                .append("api: ")
                .append(api)
                .append("\n")
                .append("# The API key is read from this environment variable (or api-key-file), never from this "
                        + "file.\n")
                .append("api-key-env: OPENAI_API_KEY\n\n")
                .append("# Workload and SLOs: the ")
                .append(preset)
                .append(" preset (configs/presets/")
                .append(preset)
                .append(".yaml).\n")
                .append(presetText(preset));
        try {
            Files.writeString(out, b.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
        spec.commandLine()
                .getOut()
                .println(
                        "wrote " + out + " (" + preset + " preset" + (url == null ? ", embedded simulator" : ", " + url)
                                + "); try: ./headroom probe --config " + out);
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }

    /** A preset as shipped in the jar (configs/presets/NAME.yaml). */
    static String presetText(String name) {
        try (InputStream in =
                InitCommand.class.getClassLoader().getResourceAsStream("configs/presets/" + name + ".yaml")) {
            if (in == null) throw new IllegalStateException("preset " + name + " is not in the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
