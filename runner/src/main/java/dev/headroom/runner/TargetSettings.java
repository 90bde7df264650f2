package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
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
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which endpoint a command measures and how to reach it, as its options give it; {@link #open} validates it and
 * starts what it needs. Option names in messages are the command line's.
 *
 * @param url        the server's base URL; null for the embedded simulator
 * @param virtual    the simulator on its virtual clock (no URL)
 * @param apiKeyEnv  environment variable holding the API key
 * @param apiKeyFile file holding it (first line), or null
 * @param headers    extra request headers as NAME:VALUE
 * @param metricsUrl Prometheus metrics to scrape, or null for the target's /metrics when it answers
 * @param noMetrics  scrape nothing
 * @param workers    the workers that share each load point, or null for this process alone
 */
public record TargetSettings(
        String url,
        boolean virtual,
        String api,
        String model,
        String apiKeyEnv,
        Path apiKeyFile,
        List<String> headers,
        boolean insecure,
        String keepAlive,
        String metricsUrl,
        Duration metricsInterval,
        boolean noMetrics,
        Duration connectTimeout,
        Duration firstTokenTimeout,
        Duration totalTimeout,
        WorkerSettings workers) {

    public TargetSettings {
        headers = List.copyOf(headers);
    }

    /** Whether the simulator is measured (over HTTP or on its virtual clock). */
    public boolean embedded() {
        return url == null;
    }

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

    /** Where the API key comes from, for config.yaml: never the key itself. */
    private String apiKeyOrigin() {
        return apiKeyFile != null ? "file " + apiKeyFile : "$" + apiKeyEnv;
    }

    public Endpoint open(EngineConfig engine, ServerBehaviour behaviour) {
        if (virtual && workers != null) {
            throw new BadInputException("--virtual has no client to share out; drop --workers, or measure over HTTP");
        }
        if (virtual) return Endpoint.virtual(engine, Api.parse(api).wireName(), behaviour.imitates());
        SimServer server =
                embedded() ? SimServer.start(SimServer.Config.loopback(engine).withBehaviour(behaviour)) : null;
        try {
            Target t = toTarget(server != null ? server.baseUri() : parsedUrl());
            return Endpoint.http(server, t, apiKeyOrigin(), engine)
                    .withMetrics(metricsUrlFor(t.baseUrl()), metricsInterval)
                    .withWorkers(workers, apiKeyEnv, apiKeyFile);
        } catch (RuntimeException e) {
            if (server != null) server.close();
            throw e;
        }
    }

    /**
     * Everything about the target checked before anything is written (the embedded simulator needs nothing; the
     * virtual clock draws synthetic prompts of the workload's lengths, and cannot replay a dataset or a trace).
     */
    public void validate(WorkloadSpec work) {
        headers(headers);
        if (apiKeyFile != null) apiKey(); // a key file given is read, whatever the target: a missing one is bad input
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

    /**
     * {@code NAME:VALUE} headers by name. A malformed one is named by its position and its first word, never its value:
     * a header is where secrets go ({@code Authorization Bearer sk-...} without its colon holds one).
     */
    static Map<String, String> headers(List<String> given) {
        Map<String, String> h = new LinkedHashMap<>();
        for (int i = 0; i < given.size(); i++) {
            String kv = given.get(i);
            int colon = kv.indexOf(':');
            if (colon <= 0 || kv.substring(0, colon).isBlank()) {
                String word = kv.strip().split("[\\s:]", 2)[0];
                String name = word.matches("[A-Za-z0-9-]{1,64}") ? " (starting '" + word + "')" : "";
                throw new BadInputException("bad --header #" + (i + 1) + name + ": expected NAME:VALUE, a header "
                        + "name, a colon, then its value (the value is not shown)");
            }
            h.put(kv.substring(0, colon).trim(), kv.substring(colon + 1).trim());
        }
        return h;
    }

    private Target toTarget(URI baseUrl) {
        Map<String, String> h = headers(headers);
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
            if (u.getPort() <= 65535) return u;
        } catch (IllegalArgumentException e) {
            throw new BadInputException(
                    "bad --url '" + url + "': give an http:// or https:// base URL, e.g. http://127.0.0.1:8000");
        }
        throw new BadInputException("bad --url '" + url + "': its port is not a TCP port; give one from 1 to 65535");
    }

    private String apiKey() {
        if (apiKeyFile != null) {
            try {
                return Files.readAllLines(apiKeyFile).stream()
                        .findFirst()
                        .map(String::trim)
                        .orElse(null);
            } catch (NoSuchFileException e) {
                // A missing input file is bad input, as a missing --dataset is; other failures to read are I/O.
                throw new BadInputException("--api-key-file " + apiKeyFile + ": no such file");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read --api-key-file " + apiKeyFile + ": " + IoReason.of(e), e);
            }
        }
        String v = System.getenv(apiKeyEnv);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
