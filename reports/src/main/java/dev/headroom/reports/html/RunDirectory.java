package dev.headroom.reports.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import dev.headroom.reports.ResultFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A stored run directory and what kind of result it holds; reports read only these files, never re-run anything. */
record RunDirectory(Path dir, ResultFiles.Kind kind, JsonNode result) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static RunDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) throw new BadInputException("report: " + dir + " is not a directory");
        ResultFiles.Result found = ResultFiles.find(dir);
        if (found == null) {
            throw new BadInputException("report: " + dir + " holds no Headroom result (summary.json, sweep.json, "
                    + "search.json, plan.json or compare.json)");
        }
        return new RunDirectory(dir, found.kind(), read(found.file()));
    }

    static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException("report: cannot read " + file + ": "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** Every line of a probe's requests.jsonl (none if it is missing); a truncated last line is skipped. */
    static List<JsonNode> requests(Path probeDir) {
        return lines(probeDir.resolve("requests.jsonl"));
    }

    /** Every JSON line of a file (none if it is missing); a truncated last line is skipped. */
    static List<JsonNode> lines(Path f) {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.isRegularFile(f)) return out;
        try (BufferedReader r = Files.newBufferedReader(f)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank()) continue;
                try {
                    out.add(JSON.readTree(line));
                } catch (IOException partial) {
                    // A run killed mid-write leaves half a line; everything before it is kept.
                }
            }
        } catch (IOException e) {
            throw new BadInputException("report: cannot read " + f + ": " + e.getMessage());
        }
        return out;
    }
}
