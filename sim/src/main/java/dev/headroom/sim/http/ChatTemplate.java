package dev.headroom.sim.http;

import dev.headroom.model.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the served model's chat template adds to the messages before they are tokenized, beyond the simulator's
 * per-message template tokens: nothing, or Llama 3.1's system block, which its Jinja template writes into the
 * system message — or into a system message of its own when the request has none ("Cutting Knowledge Date: …").
 */
public enum ChatTemplate {
    SIMPLE,
    LLAMA_3_1;

    /** Llama 3.1's date lines, as its template writes them before the system prompt. */
    static final String LLAMA_3_1_PREAMBLE = "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n";

    public static ChatTemplate parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "simple" -> SIMPLE;
            case "llama-3.1", "llama3.1", "llama-3" -> LLAMA_3_1;
            default ->
                throw new BadInputException("bad {chat-template} '" + s + "': valid values are simple, llama-3.1");
        };
    }

    /** The messages as the template has them: roles and contents, the system block written in. */
    List<List<String>> apply(List<String> roles, List<String> contents) {
        if (this == SIMPLE) return List.of(roles, contents);
        List<String> r = new ArrayList<>(roles), c = new ArrayList<>(contents);
        if (!r.isEmpty() && r.getFirst().equals("system")) {
            c.set(0, LLAMA_3_1_PREAMBLE + c.getFirst());
        } else {
            r.addFirst("system");
            c.addFirst(LLAMA_3_1_PREAMBLE);
        }
        return List.of(r, c);
    }
}
