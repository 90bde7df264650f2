package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import java.util.Locale;

/** What a command prints on standard output ({@code --format}). */
enum OutputFormat {
    TABLE,
    JSON,
    CSV;

    static OutputFormat parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "table" -> TABLE;
            case "json" -> JSON;
            case "csv" -> CSV;
            default -> throw new BadInputException("bad --format '" + s + "': valid values are table, json, csv");
        };
    }
}
