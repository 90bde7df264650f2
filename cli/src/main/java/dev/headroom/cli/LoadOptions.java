package dev.headroom.cli;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.time.Duration;

/** The load model: closed-loop --concurrency or open-loop --rate, never both. */
public final class LoadOptions {
    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Mode mode;

    static final class Mode {
        @Option(names = "--concurrency", paramLabel = "N", description = "Closed loop: N users, each sending its next request when its last ends.")
        Integer concurrency;

        @Option(names = "--rate", paramLabel = "R", description = "Open loop: R requests per second on a schedule fixed in advance.")
        Double rate;
    }

    @Option(names = "--arrival", paramLabel = "constant|poisson|gamma", defaultValue = "poisson",
            description = "Open-loop arrival process (default: ${DEFAULT-VALUE}).")
    String arrival;

    @Option(names = "--burstiness", paramLabel = "K", defaultValue = "1",
            description = "Gamma shape for --arrival gamma: < 1 burstier than Poisson, 1 = Poisson (default: ${DEFAULT-VALUE}).")
    double burstiness;

    @Option(names = "--max-concurrency", paramLabel = "N", defaultValue = "0",
            description = "Open loop: cap on requests in flight; the time waited for a slot is reported (default: no cap).")
    int maxConcurrency;

    @Option(names = "--think-time", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "Closed loop: pause between a response and the user's next request (default: none).")
    Duration thinkTime;

    /** The load model; closed loop with {@code defaultConcurrency} users when neither flag is given. */
    LoadModel toLoad(int defaultConcurrency) {
        if (mode != null && mode.rate != null) {
            ArrivalProcess a = switch (arrival.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "constant" -> new ArrivalProcess.Constant();
                case "poisson" -> new ArrivalProcess.Poisson();
                case "gamma" -> new ArrivalProcess.Gamma(burstiness);
                default -> throw new IllegalArgumentException("bad --arrival '" + arrival
                        + "': valid values are constant, poisson, gamma");
            };
            return new LoadModel.Open(mode.rate, a);
        }
        return new LoadModel.Closed(mode != null && mode.concurrency != null ? mode.concurrency : defaultConcurrency);
    }
}
