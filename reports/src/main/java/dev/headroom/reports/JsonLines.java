package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ObjLongConsumer;

/** The lines of a JSON-lines file Headroom appended to while it measured. */
final class JsonLines {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonLines() {}

    /** Every line (none when the file is missing); a half-written last line, as a killed run leaves, is skipped. */
    static List<JsonNode> read(Path f) {
        List<JsonNode> out = new ArrayList<>();
        forEach(f, (node, number) -> out.add(node));
        return out;
    }

    /**
     * Hands each line to {@code sink} with its 1-based number as it is read (a file of any length in little memory;
     * none when the file is missing); a half-written last line, as a killed run leaves, is skipped.
     */
    static void forEach(Path f, ObjLongConsumer<JsonNode> sink) {
        if (!Files.isRegularFile(f)) return;
        try (BufferedReader r = Files.newBufferedReader(f)) {
            long number = 0;
            for (String line; (line = r.readLine()) != null; ) {
                number++;
                if (line.isBlank()) continue;
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (IOException partial) {
                    continue; // a run killed mid-write leaves half a line; everything before it is kept
                }
                sink.accept(node, number);
            }
        } catch (CharacterCodingException e) {
            throw new BadInputException(f + ": " + IoReason.NOT_UTF8 + "; give a requests.jsonl Headroom wrote");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + f + ": " + IoReason.of(e));
        }
    }
}
