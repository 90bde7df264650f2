package dev.headroom.cli;

import dev.headroom.probe.WorkloadSpec;
import dev.headroom.runner.Endpoint;
import dev.headroom.runner.TargetSettings;
import dev.headroom.runner.WorkerSettings;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** Which endpoint to measure and how to reach it; shared by every measuring command. */
public final class TargetOptions {
    @Option(names = "--url", paramLabel = "URL")
    String url;

    @Option(names = "--virtual")
    boolean virtual;

    @Option(names = "--api", paramLabel = "chat|completions", defaultValue = "chat")
    String api;

    @Option(names = "--model", paramLabel = "NAME")
    String model;

    @Option(names = "--api-key-env", paramLabel = "NAME", defaultValue = "OPENAI_API_KEY")
    String apiKeyEnv;

    @Option(names = "--api-key-file", paramLabel = "FILE")
    Path apiKeyFile;

    @Option(names = "--header", paramLabel = "K:V")
    List<String> headers = List.of();

    @Option(names = "--insecure")
    boolean insecure;

    @Option(names = "--keep-alive", paramLabel = "auto|on|off", defaultValue = "auto")
    String keepAlive;

    @Option(names = "--metrics-url", paramLabel = "URL")
    String metricsUrl;

    @Option(
            names = "--metrics-interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            converter = DurationConverter.class)
    Duration metricsInterval;

    @Option(names = "--no-metrics")
    boolean noMetrics;

    @Option(
            names = "--connect-timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = PositiveDurationConverter.class)
    Duration connectTimeout;

    @Option(
            names = "--first-token-timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            converter = PositiveDurationConverter.class)
    Duration firstTokenTimeout;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "300s",
            converter = PositiveDurationConverter.class)
    Duration totalTimeout;

    @Option(names = "--workers", paramLabel = "N|URL,URL...")
    String workers;

    @Option(names = "--worker-token-file", paramLabel = "FILE")
    Path workerTokenFile;

    /** The longest wait for a first token: no calibration probe is sized to come near it. */
    Duration firstTokenTimeout() {
        return firstTokenTimeout;
    }

    /** Whether the measured server is the simulator on its virtual clock. */
    boolean virtual() {
        return virtual;
    }

    boolean embedded() {
        return url == null;
    }

    /** The options as a value the runner takes. */
    TargetSettings settings() {
        return new TargetSettings(
                url,
                virtual,
                api,
                model,
                apiKeyEnv,
                apiKeyFile,
                headers,
                insecure,
                keepAlive,
                metricsUrl,
                metricsInterval,
                noMetrics,
                connectTimeout,
                firstTokenTimeout,
                totalTimeout,
                WorkerSettings.parse(workers, workerTokenFile));
    }

    /** See {@link TargetSettings#open}. */
    Endpoint open(EngineConfig engine, ServerBehaviour behaviour) {
        return settings().open(engine, behaviour);
    }

    /** See {@link TargetSettings#validate}. */
    void validate(WorkloadSpec work) {
        settings().validate(work);
    }
}
