package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import java.util.Locale;

/** Which OpenAI endpoint to drive. */
public enum Api {
    CHAT("/v1/chat/completions"),
    COMPLETIONS("/v1/completions");

    private final String path;

    Api(String path) {
        this.path = path;
    }

    public String path() {
        return path;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Api parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "chat" -> CHAT;
            case "completions", "completion" -> COMPLETIONS;
            default -> throw new BadInputException("bad {api} '" + s + "': valid values are chat, completions");
        };
    }
}
