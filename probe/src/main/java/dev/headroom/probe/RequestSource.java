package dev.headroom.probe;

import dev.headroom.model.RequestRecord;
import java.util.SplittableRandom;
import okhttp3.OkHttpClient;

/** Where request bodies come from: synthetic prompts of target lengths, or a dataset. */
interface RequestSource {

    /** Adjusts to the server before the run (e.g. calibrates prompt lengths with its /tokenize). */
    void calibrate(OkHttpClient http, Target target);

    /** How input lengths are hit, for results. */
    String inputLength();

    /** The body for request {@code index}; {@code rng} is seeded by the run's seed and the index. */
    PreparedRequest prepare(long index, SplittableRandom rng);

    /** A one-token request of this run's own, sent before the run to learn how the server treats connections. */
    PreparedRequest calibrationRequest();

    /** What the server did with {@code req} (a preflight or warm-up request): lengths may be corrected from it. */
    default void observe(PreparedRequest req, RequestRecord record) {}
}
