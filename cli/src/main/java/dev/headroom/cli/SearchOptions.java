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
            description = "What to find (default: ${DEFAULT-VALUE}).")
    String objective;

    @Option(
            names = "--slo",
            paramLabel = "SLO",
            required = true,
            description = "Objective the boundary must meet, repeatable: e.g. ttft:p95<300ms, itl:p99<50ms, "
                    + "error_rate<1%%, and in sessions session:p95<60s.")
    List<String> slos;

    @Option(
            names = "--min",
            paramLabel = "X",
            defaultValue = "1",
            description = "Smallest load to consider (default: ${DEFAULT-VALUE}).")
    double min;

    @Option(
            names = "--max",
            paramLabel = "X",
            defaultValue = "1024",
            description = "Largest load to consider (default: ${DEFAULT-VALUE}).")
    double max;

    @Option(
            names = "--tolerance",
            paramLabel = "F",
            defaultValue = "0.05",
            description = "Stop when the bracket's relative width is below this and a sure pass and a sure fail lie "
                    + "within this of the answer (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
            names = "--max-probes",
            paramLabel = "N",
            defaultValue = "20",
            description = "Most probes (default: ${DEFAULT-VALUE}).")
    int maxProbes;

    @Option(
            names = "--probe-requests",
            paramLabel = "N",
            defaultValue = "200",
            description = "Requests per probe (default: ${DEFAULT-VALUE}).")
    int probeRequests;

    @Option(
            names = "--probe-duration",
            paramLabel = "DURATION",
            defaultValue = "20s",
            converter = DurationConverter.class,
            description = "Longest time per probe; it ends at --probe-requests or this, whichever comes first "
                    + "(default: ${DEFAULT-VALUE}; virtual time with --virtual).")
    Duration probeDuration;

    @Option(
            names = "--goodput-unit",
            paramLabel = "requests|tokens",
            defaultValue = "requests",
            description = "max-goodput maximises good requests/s or their output tokens/s (default: ${DEFAULT-VALUE}).")
    String goodputUnit;

    @Option(
            names = "--load-axis",
            paramLabel = "concurrency|rate",
            defaultValue = "concurrency",
            description = "max-goodput varies the concurrency (closed loop) or the request rate (open loop) "
                    + "(default: ${DEFAULT-VALUE}).")
    String loadAxis;

    @Option(
            names = "--load-unit",
            paramLabel = "requests|sessions",
            defaultValue = "requests",
            description = "What the load counts: independent requests, or multi-turn sessions (concurrent sessions for "
                    + "max-concurrency, new sessions per second for max-rate), each as the session options say; every "
                    + "turn is judged by the SLOs (default: ${DEFAULT-VALUE}).")
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
