package dev.headroom.reports.imports;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Lenient JSON for other tools' files: {@code Infinity}/{@code NaN} (SGLang), CRLF, JSON Lines. */
final class Json {
    static final ObjectMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private Json() {}

    static JsonNode read(Path file) {
        try {
            return LENIENT.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(
                    file + ": not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** Every non-blank line of a JSON Lines file as JSON; a line that is not JSON is an error naming it. */
    static List<JsonNode> lines(Path file) {
        List<JsonNode> out = new ArrayList<>();
        try {
            int n = 0;
            for (String line : Files.readAllLines(file)) {
                n++;
                if (line.isBlank()) continue;
                try {
                    out.add(LENIENT.readTree(line));
                } catch (IOException e) {
                    throw new BadInputException(file + " line " + n + ": not JSON");
                }
            }
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + ": " + e.getMessage());
        }
        return out;
    }

    /** A number, or null when absent, null or not a number ("inf" strings become +Infinity). */
    static Double num(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) return null;
        if (n.isNumber()) return n.asDouble();
        if (n.isTextual()) {
            String s = n.asText().trim().replace(",", "");
            if (s.equalsIgnoreCase("inf") || s.equalsIgnoreCase("infinity")) return Double.POSITIVE_INFINITY;
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    static Double times(Double v, double factor) {
        return v == null ? null : v * factor;
    }

    static Long count(JsonNode n) {
        Double d = num(n);
        return d == null || d.isInfinite() ? null : Math.round(d);
    }
}
