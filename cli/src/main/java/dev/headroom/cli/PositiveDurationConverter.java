package dev.headroom.cli;

import java.time.Duration;
import picocli.CommandLine;

/** A {@link DurationConverter} duration that must be more than zero (a timeout), refused in the user's spelling. */
public final class PositiveDurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        Duration d = new DurationConverter().convert(value);
        if (d.isZero()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is no time at all; give a duration above 0, e.g. 250ms, 5s, 2m");
        }
        return d;
    }
}
