package dev.headroom.cli;

import dev.headroom.model.Slo;
import dev.headroom.runner.ProbePlan;
import dev.headroom.runner.RunSettings;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** How long a load point runs, its warm-up, and the SLOs it is judged by. */
public final class RunOptions {
    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Measure for this long after warm-up (default: 30s unless --requests is given).")
    Duration duration;

    @Option(
            names = "--requests",
            paramLabel = "N",
            defaultValue = "0",
            description = "Measure this many requests after warm-up.")
    int requests;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Warm-up time; its requests are recorded but excluded from every metric; 0 for none "
                    + "(default: 5s unless --warmup-requests is given).")
    Duration warmup;

    @Option(
            names = "--warmup-requests",
            paramLabel = "N",
            description = "Warm-up by count instead: the first N requests; 0 for no warm-up (either way no timed "
                    + "warm-up unless --warmup is given too).")
    Integer warmupRequests;

    @Option(
            names = "--ramp",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Start users evenly (closed loop) or raise the rate linearly (open loop) over this time; 0s "
                    + "starts them at once (default: closed loops of several users over one request cycle, from a "
                    + "pilot request, as search probes do).")
    Duration ramp;

    @Option(
            names = "--grace",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = DurationConverter.class,
            description = "Time in-flight requests may finish after the last send; later ones count as incomplete "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(
            names = "--slo",
            paramLabel = "SLO",
            description = "Service-level objective, repeatable: e.g. ttft:p95<500ms, itl:p99<50ms, e2e:p99<10s, "
                    + "error_rate<1%%; with sessions also session:p95<60s (a whole session's duration).")
    List<String> slos = List.of();

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "42",
            description = "Seed for lengths, prompts and arrivals (default: ${DEFAULT-VALUE}).")
    long seed;

    List<Slo> slos() {
        return slos.stream().map(Slo::parse).toList();
    }

    /** The options as the runner's value. */
    RunSettings settings() {
        return new RunSettings(duration, requests, warmup, warmupRequests, ramp, grace, seed);
    }

    /** How {@code load}'s options shape this run's load points. */
    ProbePlan plan(LoadOptions load) {
        return new ProbePlan(load.thinkTime(), load.maxConcurrency, settings());
    }
}
