package dev.headroom.cli;

import picocli.CommandLine.Option;

/** {@code --format}: what a command prints on standard output. */
public final class FormatOption {
    @Option(names = "--format", paramLabel = "table|json|csv", defaultValue = "table")
    String format;

    OutputFormat format() {
        return OutputFormat.parse(format);
    }
}
