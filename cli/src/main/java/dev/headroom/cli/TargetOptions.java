package dev.headroom.cli;

import dev.headroom.cli.app.Endpoint;
import dev.headroom.model.BadInputException;
import dev.headroom.probe.Api;
import dev.headroom.probe.KeepAlive;
import dev.headroom.probe.MetricsScraper;
import dev.headroom.probe.Target;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.http.SimServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * The metrics URL to scrape for a target at {@code base}, or null: --metrics-url, else the target's /metrics if it
     * answers with Prometheus text now.
     */
    private String metricsUrlFor(URI base) {
        if (noMetrics) return null;
        if (metricsInterval.isNegative() || metricsInterval.isZero()) {
            throw new BadInputException("--metrics-interval must be > 0, got " + metricsInterval);
        }
        if (metricsUrl != null) {
            URI u;
            try {
                u = URI.create(metricsUrl.trim());
            } catch (IllegalArgumentException e) {
                u = URI.create("bad:x");
            }
            if (u.getScheme() == null
                    || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
                throw new BadInputException("bad --metrics-url '" + metricsUrl + "': give an http:// or https:// URL");
            }
            return metricsUrl;
        }
        return MetricsScraper.discover(base);
    }

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

    /** Where the API key comes from, for config.yaml: never the key itself. */
    private String apiKeyOrigin() {
        return apiKeyFile != null ? "file " + apiKeyFile : "$" + apiKeyEnv;
    }

    /**
     * The --url server, the embedded simulator running {@code engine} (started now and stopped with it), or with
     * --virtual that engine on its virtual clock.
     */
    Endpoint open(EngineConfig engine, ServerBehaviour behaviour) {
        if (virtual) return Endpoint.virtual(engine, Api.parse(api).wireName(), behaviour.imitates());
        SimServer server =
                embedded() ? SimServer.start(SimServer.Config.loopback(engine).withBehaviour(behaviour)) : null;
        try {
            Target t = toTarget(server != null ? server.baseUri() : parsedUrl());
            return Endpoint.http(server, t, apiKeyOrigin(), engine)
                    .withMetrics(metricsUrlFor(t.baseUrl()), metricsInterval);
        } catch (RuntimeException e) {
            if (server != null) server.close();
            throw e;
        }
    }

    /**
     * Everything about the target checked before anything is written (the embedded simulator needs nothing; the
     * virtual clock draws synthetic prompts of the workload's lengths, and cannot replay a dataset or a trace).
     */
    void validate(WorkloadSpec work) {
        if (virtual) {
            if (!embedded()) throw new BadInputException("--virtual simulates; it cannot take --url");
            if (work.dataset() != null || work.trace() != null || work.sharedPrefixTokens() > 0) {
                throw new BadInputException("--virtual draws synthetic prompts of the given lengths; drop "
                        + "--dataset/--trace/--shared-prefix, or measure the simulator over HTTP without --virtual");
            }
            return;
        }
        if (!embedded()) toTarget(parsedUrl());
    }

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

    /** The target for {@code baseUrl} (the given --url, or the embedded simulator's). */
    private Target toTarget(URI baseUrl) {
        Map<String, String> h = new LinkedHashMap<>();
        for (String kv : headers) {
            int colon = kv.indexOf(':');
            if (colon <= 0)
                throw new BadInputException("bad --header '" + kv.replaceAll(":.*", ":***") + "': expected NAME:VALUE");
            h.put(kv.substring(0, colon).trim(), kv.substring(colon + 1).trim());
        }
        return new Target(
                baseUrl,
                Api.parse(api),
                model,
                apiKey(),
                h,
                insecure,
                connectTimeout,
                firstTokenTimeout,
                totalTimeout,
                KeepAlive.parse(keepAlive));
    }

    private URI parsedUrl() {
        try {
            URI u = URI.create(url.trim());
            if (u.getHost() == null || !("http".equals(u.getScheme()) || "https".equals(u.getScheme()))) {
                throw new IllegalArgumentException();
            }
            return u;
        } catch (IllegalArgumentException e) {
            throw new BadInputException(
                    "bad --url '" + url + "': give an http:// or https:// base URL, e.g. http://127.0.0.1:8000");
        }
    }

    private String apiKey() {
        if (apiKeyFile != null) {
            try {
                return Files.readAllLines(apiKeyFile).stream()
                        .findFirst()
                        .map(String::trim)
                        .orElse(null);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read --api-key-file " + apiKeyFile + ": " + e.getMessage(), e);
            }
        }
        String v = System.getenv(apiKeyEnv);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
