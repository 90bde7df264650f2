package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Slo;
import dev.headroom.runner.ProbePlan;
import dev.headroom.runner.RunSettings;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** How long a load point runs, its warm-up, and the SLOs it is judged by. */
public final class RunOptions {
    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class)
    Duration duration;

    @Option(names = "--requests", paramLabel = "N")
    Integer requests;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class)
    Duration warmup;

    @Option(names = "--warmup-requests", paramLabel = "N")
    Integer warmupRequests;

    @Option(names = "--ramp", paramLabel = "DURATION", converter = DurationConverter.class)
    Duration ramp;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class)
    Duration grace;

    @Option(names = "--slo", paramLabel = "SLO", descriptionKey = "run.slo")
    List<String> slos = List.of();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", descriptionKey = "run.seed")
    long seed;

    List<Slo> slos() {
        return slos.stream().map(Slo::parse).toList();
    }

    /** The options as the runner's value. */
    RunSettings settings() {
        if (requests != null && requests < 1) {
            throw new BadInputException(
                    "--requests must be >= 1, got " + requests + " (leave it out to stop at " + "--duration)");
        }
        return new RunSettings(duration, requests == null ? 0 : requests, warmup, warmupRequests, ramp, grace, seed);
    }

    /** How {@code load}'s options shape this run's load points. */
    ProbePlan plan(LoadOptions load) {
        return new ProbePlan(load.thinkTime(), load.maxConcurrency, settings());
    }
}
