package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The lines of a JSON-lines file Headroom appended to while it measured. */
final class JsonLines {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonLines() {}

    /** Every line (none when the file is missing); a half-written last line, as a killed run leaves, is skipped. */
    static List<JsonNode> read(Path f) {
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
            throw new BadInputException("cannot read " + f + ": " + e.getMessage());
        }
        return out;
    }
}
