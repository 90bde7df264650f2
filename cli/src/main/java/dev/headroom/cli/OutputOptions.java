package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.reports.HtmlReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where a command writes its run directory and what it prints. */
public final class OutputOptions {
    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Run directory to write (default: runs/<time>-<command>).")
    Path out;

    @Option(names = "--no-report", description = "Do not write report.html into the run directory.")
    boolean noReport;

    @Mixin
    FormatOption format;

    /** Refuses a non-empty {@code --out} now, before a long computation that would write there. */
    void checkOut() {
        if (out == null || !Files.isDirectory(out)) return;
        try (var entries = Files.list(out)) {
            if (entries.findAny().isPresent())
                throw new BadInputException("--out " + out + " exists and is not empty; give a new directory");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read run directory " + out + ": " + e.getMessage(), e);
        }
    }

    /** Creates and returns the run directory; refuses a non-empty existing one so nothing is overwritten. */
    Path runDirectory(String command) {
        Path dir = out != null
                ? out
                : Path.of(
                        "runs",
                        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + command);
        try {
            if (Files.isDirectory(dir)) {
                try (var entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        if (out != null)
                            throw new BadInputException(
                                    "--out " + dir + " exists and is not empty; give a new directory");
                        dir = Path.of(dir + "-" + ProcessHandle.current().pid());
                    }
                }
            }
            Files.createDirectories(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create run directory " + dir + ": " + e.getMessage(), e);
        }
    }

    OutputFormat format() {
        return format.format();
    }

    /**
     * Writes report.html into a finished run directory (unless --no-report) and names it. A report that cannot be
     * made is a warning: the measurements are already on disk and stay valid.
     */
    void finish(Path dir, PrintWriter err) {
        if (!noReport) {
            try {
                err.println("report: " + HtmlReport.write(dir, null, false).html());
            } catch (RuntimeException e) {
                err.println("warning: no report.html (" + e.getMessage() + "); make it later with ./headroom report "
                        + dir);
            }
        }
        err.println("run directory: " + dir);
        err.flush();
    }
}
