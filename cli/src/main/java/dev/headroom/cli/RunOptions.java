package dev.headroom.cli;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Slo;
import dev.headroom.probe.RunPlan;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;

/** How long a load point runs, its warm-up, and the SLOs it is judged by. */
public final class RunOptions {
    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Measure for this long after warm-up (default: 30s unless --requests is given).")
    Duration duration;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "0", description = "Measure this many requests after warm-up.")
    int requests;

    static final Duration DEFAULT_WARMUP = Duration.ofSeconds(5);

    @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Warm-up time; its requests are recorded but excluded from every metric; 0 for none "
                    + "(default: 5s unless --warmup-requests is given).")
    Duration warmup;

    @Option(names = "--warmup-requests", paramLabel = "N",
            description = "Warm-up by count instead: the first N requests; 0 for no warm-up (either way no timed "
                    + "warm-up unless --warmup is given too).")
    Integer warmupRequests;

    @Option(names = "--ramp", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "Start users evenly (closed loop) or raise the rate linearly (open loop) over this time.")
    Duration ramp;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "Time in-flight requests may finish after the last send; later ones count as incomplete (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(names = "--slo", paramLabel = "SLO",
            description = "Service-level objective, repeatable: e.g. ttft:p95<500ms, itl:p99<50ms, e2e:p99<10s, error_rate<1%%.")
    List<String> slos = List.of();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed for lengths, prompts and arrivals (default: ${DEFAULT-VALUE}).")
    long seed;

    List<Slo> slos() {
        return slos.stream().map(Slo::parse).toList();
    }

    /** The run plan for one load point. */
    RunPlan plan(LoadModel loadModel, LoadOptions load) {
        return new RunPlan(loadModel, load.thinkTime, load.maxConcurrency, effectiveDuration(),
                requests, effectiveWarmup(), warmupCount(), ramp, grace, seed);
    }

    /** A replayed trace runs to its end unless --duration or --requests says otherwise. */
    RunPlan planForTrace(LoadModel loadModel, LoadOptions load, int traceSize) {
        return new RunPlan(loadModel, load.thinkTime, load.maxConcurrency, duration,
                requests > 0 || duration != null ? requests : traceSize, effectiveWarmup(), warmupCount(), ramp, grace, seed);
    }

    Duration effectiveDuration() {
        return duration == null && requests <= 0 ? Duration.ofSeconds(30) : duration;
    }

    /** --warmup when given; else none when --warmup-requests is given (even 0), else the 5-s default. */
    Duration effectiveWarmup() {
        if (warmup != null) return warmup;
        return warmupRequests != null ? Duration.ZERO : DEFAULT_WARMUP;
    }

    int warmupCount() {
        return warmupRequests == null ? 0 : warmupRequests;
    }
}
