package dev.headroom.cli;

import dev.headroom.probe.WorkloadSpec;
import dev.headroom.runner.Endpoint;
import dev.headroom.runner.TargetSettings;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** Which endpoint to measure and how to reach it; shared by every measuring command. */
public final class TargetOptions {
    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "Base URL of the OpenAI-compatible server (e.g. http://127.0.0.1:8000). Without it, the "
                    + "embedded simulator is started in-process and measured.")
    String url;

    @Option(
            names = "--virtual",
            description = "Run the simulator on its virtual clock: no HTTP, no waiting (a point of minutes takes "
                    + "milliseconds); results are labelled simulated. Takes no --url.")
    boolean virtual;

    @Option(
            names = "--api",
            paramLabel = "chat|completions",
            defaultValue = "chat",
            description = "Endpoint: /v1/chat/completions or /v1/completions (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(
            names = "--model",
            paramLabel = "NAME",
            description = "Model to request; default: the first one GET /v1/models lists.")
    String model;

    @Option(
            names = "--api-key-env",
            paramLabel = "NAME",
            defaultValue = "OPENAI_API_KEY",
            description =
                    "Environment variable holding the API key, sent as a Bearer token (default: ${DEFAULT-VALUE}).")
    String apiKeyEnv;

    @Option(names = "--api-key-file", paramLabel = "FILE", description = "File holding the API key (first line).")
    Path apiKeyFile;

    @Option(
            names = "--header",
            paramLabel = "K:V",
            description = "Extra request header; repeatable. Values are never printed.")
    List<String> headers = List.of();

    @Option(names = "--insecure", description = "Do not verify TLS certificates.")
    boolean insecure;

    @Option(
            names = "--keep-alive",
            paramLabel = "auto|on|off",
            defaultValue = "auto",
            description = "Kept-alive connections: auto learns from one streamed request whether the server closes "
                    + "after each response and reuses less after a failure on a reused connection; on reuses "
                    + "connections idle < 4 s; off sends Connection: close (default: ${DEFAULT-VALUE}).")
    String keepAlive;

    @Option(
            names = "--metrics-url",
            paramLabel = "URL",
            description =
                    "Prometheus metrics to scrape during every probe (default: the target's /metrics when it answers).")
    String metricsUrl;

    @Option(
            names = "--metrics-interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            converter = DurationConverter.class,
            description = "Time between metrics scrapes (default: ${DEFAULT-VALUE}).")
    Duration metricsInterval;

    @Option(names = "--no-metrics", description = "Do not scrape the server's metrics.")
    boolean noMetrics;

    @Option(
            names = "--connect-timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "TCP/TLS connect timeout (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(
            names = "--first-token-timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description = "Longest wait from the send for the first token (default: ${DEFAULT-VALUE}).")
    Duration firstTokenTimeout;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "300s",
            converter = DurationConverter.class,
            description = "Longest time one request may take in all (default: ${DEFAULT-VALUE}).")
    Duration totalTimeout;

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
                totalTimeout);
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
