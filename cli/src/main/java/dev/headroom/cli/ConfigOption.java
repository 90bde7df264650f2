package dev.headroom.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --config FILE.yaml}, which every command accepts (read by {@link ConfigFile} before parsing). */
public final class ConfigOption {
    @Option(names = "--config", paramLabel = "FILE.yaml")
    Path config;
}
