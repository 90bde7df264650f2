package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a forecast class counts and its capacity is measured in: requests per second, new sessions per second, or
 * active users (sessions in progress at once). Traffic and capacity of one class are always in its unit, so replicas
 * = ⌈traffic ÷ (capacity × utilization)⌉ + redundancy whatever the unit.
 */
public enum LoadUnit {
    REQUESTS("requests", "rps", "req/s"),
    SESSIONS("sessions", "sessions_per_s", "sessions/s"),
    USERS("users", "users", "users");

    private final String wire;
    private final String key;
    private final String label;

    LoadUnit(String wire, String key, String label) {
        this.wire = wire;
        this.key = key;
        this.label = label;
    }

    /** How forecasts and results name it ({@code sessions}). */
    public String wireName() {
        return wire;
    }

    /** The key of a value in this unit in files ({@code rps}, {@code sessions_per_s}, {@code users}). */
    public String key() {
        return key;
    }

    /** The unit as the console and report print it ({@code req/s}). */
    public String label() {
        return label;
    }

    /** Whether a class in this unit is made of sessions (its tokens are counted per session). */
    public boolean sessions() {
        return this != REQUESTS;
    }

    /** The unit of a wire name; the error lists the valid ones. */
    public static LoadUnit parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        for (LoadUnit u : values()) if (u.wire.equals(s)) return u;
        throw new BadInputException("unit '" + text + "' is not one of "
                + Arrays.stream(values()).map(LoadUnit::wireName).toList());
    }
}
