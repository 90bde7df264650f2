package dev.headroom.sim.engine;

import dev.headroom.model.BadInputException;
import java.util.Locale;

/** What KV-cache room a waiting request must find before it enters the batch. */
public enum Admission {
    /**
     * Room for what it computes in this step (a chunk of its prompt); a running request that later finds no block is
     * preempted and recomputed (vLLM V1's scheduler, and V0's).
     */
    CHUNK,
    /**
     * Room for its prompt and its whole answer beside what every running request will still need, so nothing started
     * is ever preempted: TensorRT-LLM's default capacity scheduler, {@code GUARANTEED_NO_EVICT}.
     */
    NO_EVICT;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Admission parse(String s) {
        for (Admission a : values()) if (a.wireName().equals(s.trim().toLowerCase(Locale.ROOT))) return a;
        throw new BadInputException("bad admission '" + s + "': valid values are chunk, no-evict");
    }
}
