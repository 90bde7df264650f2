package dev.headroom.cli;

import dev.headroom.model.Gates;
import picocli.CommandLine.Option;

/** The CI gates of a command that measures load points: the SLO and the error rate (exit 8 when one fails). */
public final class GateOptions {
    @Option(names = "--fail-on-slo")
    boolean failOnSlo;

    @Option(names = "--max-error-rate", paramLabel = "P")
    String maxErrorRate;

    /** The gates, with a sweep's named point ({@code at}) and a search's floor ({@code require}); NaN: none. */
    Gates gates(double at, double require) {
        double rate = maxErrorRate == null ? Double.NaN : Gates.share(maxErrorRate, "--max-error-rate");
        return new Gates(failOnSlo, rate, at, require, Double.NaN);
    }
}
