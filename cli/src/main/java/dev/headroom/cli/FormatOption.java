package dev.headroom.cli;

import picocli.CommandLine.Option;

/** {@code --format}: what a command prints on standard output. */
public final class FormatOption {
    @Option(
            names = "--format",
            paramLabel = "table|json|csv",
            defaultValue = "table",
            description = "What to print: a table, the JSON result, or CSV (default: ${DEFAULT-VALUE}).")
    String format;

    OutputFormat format() {
        return OutputFormat.parse(format);
    }
}
