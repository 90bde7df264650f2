package dev.headroom.cli;

import dev.headroom.model.Slo;
import dev.headroom.runner.SearchSettings;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** What a search finds, under which SLOs, over what range, to what precision, with probes of what size. */
public final class SearchOptions {
    @Option(
            names = "--objective",
            paramLabel = "max-concurrency|max-rate|max-goodput",
            defaultValue = "max-concurrency",
            converter = ObjectiveConverter.class)
    String objective;

    @Option(names = "--slo", paramLabel = "SLO", required = true, descriptionKey = "search-options.slo")
    List<String> slos;

    @Option(names = "--min", paramLabel = "X", defaultValue = "1")
    double min;

    @Option(names = "--max", paramLabel = "X", defaultValue = "1024")
    double max;

    @Option(names = "--tolerance", paramLabel = "F", defaultValue = "0.05")
    double tolerance;

    @Option(names = "--max-probes", paramLabel = "N", defaultValue = "20")
    int maxProbes;

    @Option(names = "--probe-requests", paramLabel = "N", defaultValue = "200")
    int probeRequests;

    @Option(
            names = "--probe-duration",
            paramLabel = "DURATION",
            defaultValue = "20s",
            converter = DurationConverter.class)
    Duration probeDuration;

    @Option(names = "--goodput-unit", paramLabel = "requests|tokens", defaultValue = "requests")
    String goodputUnit;

    @Option(names = "--load-axis", paramLabel = "concurrency|rate", defaultValue = "concurrency")
    String loadAxis;

    @Option(names = "--load-unit", paramLabel = "requests|sessions", defaultValue = "requests")
    String loadUnit;

    /** The options as the runner's value. */
    SearchSettings settings(long seed) {
        return new SearchSettings(
                objective,
                slos.stream().map(Slo::parse).toList(),
                min,
                max,
                tolerance,
                maxProbes,
                probeRequests,
                probeDuration,
                goodputUnit,
                loadAxis,
                loadUnit,
                seed);
    }
}
