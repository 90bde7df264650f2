package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
import dev.headroom.reports.HtmlReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A command's run directory: {@code --out DIR} or {@code runs/<time>-<command>}; never one that already holds files, so
 * nothing measured earlier is overwritten.
 *
 * @param out the directory asked for, or null for the default
 * @param report whether a finished directory gets its report.html
 */
public record RunDirectory(Path out, boolean report) {
    /** Refuses a non-empty {@code --out} now, before a long computation that would write there. */
    public void checkOut() {
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            throw new BadInputException("--out " + out + " is a file; give a new directory");
        }
        if (out == null || !Files.isDirectory(out)) return;
        if (!empty(out)) throw new BadInputException("--out " + out + " exists and is not empty; give a new directory");
    }

    /** Creates and returns the directory; a default one already taken gets the process id appended. */
    public Path create(String command) {
        Path dir = out != null
                ? out
                : Path.of(
                        "runs",
                        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + command);
        if (Files.isDirectory(dir) && !empty(dir)) {
            if (out != null)
                throw new BadInputException("--out " + dir + " exists and is not empty; give a new directory");
            dir = Path.of(dir + "-" + ProcessHandle.current().pid());
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadInputException(
                    (out != null ? "--out " : "run directory ") + dir + " is a file; give a new directory");
        }
        try {
            Files.createDirectories(dir);
            return dir;
        } catch (IOException e) {
            // The JDK's message is the bare path ("cannot create run directory X: X"): say why instead.
            String why = e instanceof FileAlreadyExistsException x && x.getFile() != null
                    ? x.getFile() + " is a file, not a directory"
                    : IoReason.of(e);
            throw new UncheckedIOException("cannot create run directory " + dir + ": " + why, e);
        }
    }

    /**
     * Writes report.html into a finished run directory (unless turned off) and names the directory. A report that
     * cannot be made is a warning: the measurements are already on disk and stay valid.
     */
    public void finish(Path dir, PrintWriter err) {
        if (report) {
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

    private static boolean empty(Path dir) {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read run directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
