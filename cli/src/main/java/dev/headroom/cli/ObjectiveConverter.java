package dev.headroom.cli;

import java.util.List;
import picocli.CommandLine;

/** {@code --objective}, checked as it is parsed, so a misspelt one is named before any missing option is. */
public final class ObjectiveConverter implements CommandLine.ITypeConverter<String> {
    static final List<String> VALID = List.of("max-concurrency", "max-rate", "max-goodput");

    @Override
    public String convert(String value) {
        if (!VALID.contains(value.trim())) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not an objective; valid: " + String.join(", ", VALID));
        }
        return value.trim();
    }
}
