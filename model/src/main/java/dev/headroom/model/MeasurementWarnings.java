package dev.headroom.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a probe's own result says may have bent it, in words, for the console and {@code summary.json}: input lengths
 * off the requested ones, prompts served from the server's prefix cache though no reuse was asked for, and requests
 * lost to the client's own connection race.
 */
public final class MeasurementWarnings {
    /** Measured mean input length may differ this much from the requested mean before it is called out. */
    public static final double ISL_TOLERANCE = 0.01;

    private MeasurementWarnings() {}

    /**
     * @param inputLength  how lengths were hit, to say why they missed
     * @param reuseAsked   whether the workload asked for shared text (a shared prefix, a dataset): then cached
     *                     prompt tokens are expected
     */
    public static List<String> of(Summary s, String inputLength, boolean reuseAsked) {
        List<String> w = new ArrayList<>();
        Distribution isl = s.distribution(Metric.ISL);
        double requestedIsl = s.requestedIslMean();
        if (Double.isFinite(requestedIsl) && requestedIsl > 0 && isl.count() > 0) {
            double error = isl.mean() / requestedIsl - 1;
            if (Math.abs(error) > ISL_TOLERANCE) {
                w.add(String.format(
                        Locale.ROOT,
                        "measured isl mean %.1f is %+.1f%% off the requested %.0f (lengths: %s)",
                        isl.mean(),
                        error * 100,
                        requestedIsl,
                        inputLength));
            }
        }
        Summary.Cache c = s.cache();
        if (!reuseAsked && c.hits() > 0) {
            w.add(String.format(
                    Locale.ROOT,
                    "%d of %d requests were served from the server's prefix cache (%d of %d "
                            + "prompt tokens cached) though no reuse was asked for: its latencies may flatter the "
                            + "server",
                    c.hits(),
                    c.reporting(),
                    c.cachedTokens(),
                    c.promptTokens()));
        }
        long stale = s.connections().stale();
        if (stale > 0) {
            w.add(stale + " request" + (stale == 1 ? " was" : "s were")
                    + " sent on a kept-alive connection the server "
                    + "had already closed: the client's race, counted apart (client_errors), not as the "
                    + "server's errors");
        }
        return List.copyOf(w);
    }
}
