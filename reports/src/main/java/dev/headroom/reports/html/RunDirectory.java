package dev.headroom.reports.html;

import dev.headroom.model.BadInputException;
import dev.headroom.reports.ResultFiles;
import java.nio.file.Files;
import java.nio.file.Path;

/** A stored run directory and what kind of result it holds; reports read only these files, never re-run anything. */
record RunDirectory(Path dir, ResultFiles.Kind kind, Path file) {
    static RunDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) throw new BadInputException("report: " + dir + " is not a directory");
        ResultFiles.Result found = ResultFiles.find(dir);
        if (found == null) {
            throw new BadInputException("report: " + dir + " holds no Headroom result (summary.json, sweep.json, "
                    + "search.json, plan.json or compare.json)");
        }
        return new RunDirectory(dir, found.kind(), found.file());
    }
}
