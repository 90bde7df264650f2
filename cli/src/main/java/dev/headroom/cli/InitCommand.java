package dev.headroom.cli;

import dev.headroom.runner.StarterConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
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
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(names = "--url", paramLabel = "URL")
    String url;

    @Option(names = "--model", paramLabel = "NAME")
    String model;

    @Option(names = "--api", paramLabel = "chat|completions", defaultValue = "chat")
    String api;

    @Option(names = "--preset", paramLabel = "chat|rag|batch-summarization", defaultValue = "chat")
    String preset;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "headroom.yaml")
    Path out;

    @Override
    public Integer call() {
        new StarterConfig(url, model, api, preset).write(out);
        PrintWriter say = spec.commandLine().getOut();
        say.println("wrote " + out + " (" + preset + " preset" + (url == null ? ", embedded simulator" : ", " + url)
                + "); try: ./headroom probe --config " + out);
        say.flush();
        return ExitCodes.OK;
    }
}
