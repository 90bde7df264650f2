package dev.headroom.cli;

import dev.headroom.model.LoadModel;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * One load point: closed-loop --concurrency or open-loop --rate of independent requests, or --sessions (in progress
 * at once) or --session-rate (new ones per second) of multi-turn sessions; exactly one.
 */
public final class LoadPointOptions {
    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Mode mode;

    static final class Mode {
        @Option(names = "--concurrency", paramLabel = "N")
        Integer concurrency;

        @Option(names = "--rate", paramLabel = "R")
        Double rate;

        @Option(names = "--sessions", paramLabel = "N")
        Integer sessions;

        @Option(names = "--session-rate", paramLabel = "R")
        Double sessionRate;
    }

    /** Whether the load is sessions. */
    boolean sessions() {
        return mode != null && (mode.sessions != null || mode.sessionRate != null);
    }

    /** The load model given, or null when no flag gives one (the runner then decides: a trace's, or its default). */
    LoadModel toLoad(LoadOptions load) {
        if (mode == null) return null;
        if (mode.rate != null) return load.open(mode.rate);
        if (mode.sessionRate != null) return load.open(mode.sessionRate);
        return new LoadModel.Closed(mode.sessions != null ? mode.sessions : mode.concurrency);
    }
}
