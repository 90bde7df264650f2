package dev.headroom.cli;

import dev.headroom.model.LoadModel;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** One load point: closed-loop --concurrency or open-loop --rate, never both. */
public final class LoadPointOptions {
    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Mode mode;

    static final class Mode {
        @Option(
                names = "--concurrency",
                paramLabel = "N",
                description = "Closed loop: N users, each sending its next request when its last ends (default: 8).")
        Integer concurrency;

        @Option(
                names = "--rate",
                paramLabel = "R",
                description = "Open loop: R requests per second on a schedule fixed in advance.")
        Double rate;
    }

    /** The load model; closed loop with {@code defaultConcurrency} users when neither flag is given. */
    LoadModel toLoad(LoadOptions load, int defaultConcurrency) {
        if (mode != null && mode.rate != null) return load.open(mode.rate);
        return new LoadModel.Closed(mode != null && mode.concurrency != null ? mode.concurrency : defaultConcurrency);
    }
}
