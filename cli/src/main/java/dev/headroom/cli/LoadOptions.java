package dev.headroom.cli;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.ThinkTime;
import java.util.Locale;
import picocli.CommandLine.Option;

/** Open-loop arrivals and closed-loop pacing: everything about the load except its size. */
public final class LoadOptions {
    @Option(names = "--arrival", paramLabel = "constant|poisson|gamma", defaultValue = "poisson")
    String arrival;

    @Option(names = "--burstiness", paramLabel = "K", defaultValue = "1")
    double burstiness;

    @Option(names = "--max-concurrency", paramLabel = "N", defaultValue = "0")
    int maxConcurrency;

    @Option(names = "--think-time", paramLabel = "DURATION|DIST", defaultValue = "0s")
    String thinkTime;

    /** The think time as given. */
    ThinkTime thinkTime() {
        return ThinkTime.parse(thinkTime);
    }

    /** The chosen open-loop arrival process. */
    ArrivalProcess arrivals() {
        return switch (arrival.trim().toLowerCase(Locale.ROOT)) {
            case "constant" -> new ArrivalProcess.Constant();
            case "poisson" -> new ArrivalProcess.Poisson();
            case "gamma" -> new ArrivalProcess.Gamma(burstiness);
            default ->
                throw new BadInputException(
                        "bad --arrival '" + arrival + "': valid values are constant, poisson, gamma");
        };
    }

    /** Open loop at {@code rate} requests/s with the chosen arrival process. */
    LoadModel open(double rate) {
        return new LoadModel.Open(rate, arrivals());
    }
}
