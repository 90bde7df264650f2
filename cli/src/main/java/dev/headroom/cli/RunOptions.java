package dev.headroom.cli;

import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.Workload;
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

    static final Duration DEFAULT_WARMUP = Duration.ofSeconds(5);

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
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "Start users evenly (closed loop) or raise the rate linearly (open loop) over this time.")
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

    /** One load point, validated: {@code loadModel} with these options' length, warm-up, ramp and grace. */
    MeasurementRequest plan(LoadModel loadModel, LoadOptions load, Workload workload) {
        return plan(loadModel, load, workload, null);
    }

    /** As above, each user or arrival a session of {@code sessions} (null: independent requests). */
    MeasurementRequest plan(LoadModel loadModel, LoadOptions load, Workload workload, SessionSpec sessions) {
        return point(loadModel, load, workload, effectiveDuration(), requests, sessions);
    }

    /** A replayed trace runs to its end unless --duration or --requests says otherwise. */
    MeasurementRequest planForTrace(LoadModel loadModel, LoadOptions load, Workload workload, int traceSize) {
        return point(
                loadModel, load, workload, duration, requests > 0 || duration != null ? requests : traceSize, null);
    }

    /** A session trace's replay: every traced turn once (unless a count or duration is given), as sessions. */
    MeasurementRequest planForSessionTrace(
            LoadModel loadModel, LoadOptions load, Workload workload, int traceTurns, SessionSpec sessions) {
        return point(
                loadModel,
                load,
                workload,
                duration,
                requests > 0 || duration != null ? requests : traceTurns,
                sessions);
    }

    private MeasurementRequest point(
            LoadModel loadModel, LoadOptions load, Workload workload, Duration d, int n, SessionSpec sessions) {
        RunLength length = new RunLength(
                n,
                d == null ? Double.POSITIVE_INFINITY : seconds(d),
                warmupCount(),
                seconds(ramp),
                seconds(effectiveWarmup()),
                seconds(grace));
        return new MeasurementRequest(
                loadModel,
                workload,
                length,
                seed,
                null,
                sessions == null ? load.fixedThinkSeconds() : 0,
                load.maxConcurrency,
                sessions);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
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
