package dev.headroom.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/** Parses {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h} or a bare number of seconds. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms"))
                return Duration.ofNanos(Math.round(Double.parseDouble(v.substring(0, v.length() - 2)) * 1e6));
            double n = Double.parseDouble(v.replaceAll("[smh]$", ""));
            double seconds = switch (v.charAt(v.length() - 1)) {
                case 'm' -> n * 60;
                case 'h' -> n * 3600;
                default -> n;
            };
            if (seconds < 0) throw new NumberFormatException();
            return Duration.ofNanos(Math.round(seconds * 1e9));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration; use e.g. 250ms, 5s, 2m, 1h (or a number of seconds)");
        }
    }
}
