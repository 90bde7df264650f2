package dev.headroom.cli;

import java.util.Locale;

/** What a command prints on standard output ({@code --format}). */
enum OutputFormat {
    TABLE, JSON, CSV;

    static OutputFormat parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "table" -> TABLE;
            case "json" -> JSON;
            case "csv" -> CSV;
            default -> throw new IllegalArgumentException("bad --format '" + s + "': valid values are table, json, csv");
        };
    }
}
