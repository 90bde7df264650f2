package dev.headroom.cli;

import dev.headroom.runner.RunDirectory;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where a command writes its run directory and what it prints. */
public final class OutputOptions {
    @Option(names = "--out", paramLabel = "DIR")
    Path out;

    @Option(names = "--no-report")
    boolean noReport;

    @Mixin
    FormatOption format;

    /** The run directory these options ask for. */
    RunDirectory directory() {
        return new RunDirectory(out, !noReport);
    }

    /** See {@link RunDirectory#checkOut}. */
    void checkOut() {
        directory().checkOut();
    }

    /** See {@link RunDirectory#create}. */
    Path runDirectory(String command) {
        return directory().create(command);
    }

    OutputFormat format() {
        return format.format();
    }

    /** See {@link RunDirectory#finish}. */
    void finish(Path dir, PrintWriter err) {
        directory().finish(dir, err);
    }
}
