package dev.headroom.sim;

import dev.headroom.model.BadInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** A misbehaviour the simulator can inject into a request, named as on the command line. */
public enum Fault {
    /** HTTP 500 before any stream. */
    HTTP_500("http500"),
    /** HTTP 503 before any stream. */
    HTTP_503("http503"),
    /** HTTP 429 before any stream. */
    HTTP_429("http429"),
    /** The connection is dropped mid-stream, without the final chunk. */
    RESET("reset"),
    /** The stream pauses for the stall duration mid-stream, then resumes. */
    STALL("stall"),
    /** One event mid-stream carries malformed JSON. */
    MALFORMED("malformed"),
    /** The stream ends cleanly mid-way, without finish_reason or [DONE]. */
    TRUNCATED("truncated"),
    /** A successful response with no output tokens. */
    EMPTY("empty"),
    /** Response headers are delayed by the slow-headers duration. */
    SLOW_HEADERS("slow-headers");

    private final String cliName;

    Fault(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** Looks a fault up by its command-line name; the error lists the valid names. */
    public static Fault parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Fault f : values()) if (f.cliName.equals(n)) return f;
        throw new BadInputException("unknown fault '" + name + "': valid kinds are "
                + Arrays.stream(values()).map(Fault::cliName).collect(Collectors.joining(", ")));
    }
}
