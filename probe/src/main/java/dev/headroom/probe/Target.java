package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The endpoint under test and how to talk to it.
 *
 * @param baseUrl          scheme, host and port (a trailing {@code /v1} is accepted and removed)
 * @param model            the model to ask for, or null to take the first from {@code GET /v1/models}
 * @param apiKey           sent as {@code Authorization: Bearer ...}; never printed (see {@link #toString()})
 * @param headers          extra request headers
 * @param insecure         skip TLS certificate verification
 * @param firstTokenTimeout how long to wait from the send for the first content token
 * @param totalTimeout     how long one request may take in all
 * @param keepAlive        how kept-alive connections are treated (see {@link KeepAlive})
 */
public record Target(
        URI baseUrl,
        Api api,
        String model,
        String apiKey,
        Map<String, String> headers,
        boolean insecure,
        Duration connectTimeout,
        Duration firstTokenTimeout,
        Duration totalTimeout,
        KeepAlive keepAlive) {

    /** A target whose connections are handled by {@link KeepAlive#AUTO}. */
    public Target(
            URI baseUrl,
            Api api,
            String model,
            String apiKey,
            Map<String, String> headers,
            boolean insecure,
            Duration connectTimeout,
            Duration firstTokenTimeout,
            Duration totalTimeout) {
        this(
                baseUrl,
                api,
                model,
                apiKey,
                headers,
                insecure,
                connectTimeout,
                firstTokenTimeout,
                totalTimeout,
                KeepAlive.AUTO);
    }

    public Target {
        if (baseUrl == null
                || baseUrl.getScheme() == null
                || baseUrl.getHost() == null
                || !(baseUrl.getScheme().equals("http") || baseUrl.getScheme().equals("https"))) {
            throw new BadInputException("bad {url} '" + baseUrl + "': give an http:// or https:// base URL, "
                    + "e.g. http://127.0.0.1:8000");
        }
        String path = baseUrl.getPath() == null ? "" : baseUrl.getPath().replaceAll("/+$", "");
        if (path.endsWith("/v1")) path = path.substring(0, path.length() - 3);
        baseUrl = URI.create(baseUrl.getScheme() + "://" + baseUrl.getRawAuthority() + path);
        headers = Map.copyOf(headers);
        if (keepAlive == null) throw new IllegalArgumentException("a keep-alive policy is required");
        for (Duration d : new Duration[] {connectTimeout, firstTokenTimeout, totalTimeout}) {
            if (d.isNegative() || d.isZero()) throw new BadInputException("timeouts must be > 0, got " + d);
        }
    }

    /** The same target asking for {@code m}. */
    public Target withModel(String m) {
        return new Target(
                baseUrl, api, m, apiKey, headers, insecure, connectTimeout, firstTokenTimeout, totalTimeout, keepAlive);
    }

    public String url(String path) {
        return baseUrl + path;
    }

    /**
     * The settings a run's config.yaml records under {@code target}: never the key or a header's value.
     *
     * @param apiKeyOrigin where the key was read from (e.g. {@code $OPENAI_API_KEY})
     */
    public Map<String, Object> settings(String apiKeyOrigin) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", baseUrl.toString());
        m.put("api", api.wireName());
        m.put("model", model);
        m.put("api_key", apiKey == null ? "none" : "from " + apiKeyOrigin);
        m.put("headers", List.copyOf(headers.keySet()));
        m.put("insecure", insecure);
        m.put("connect_timeout_s", connectTimeout.toMillis() / 1000.0);
        m.put("first_token_timeout_s", firstTokenTimeout.toMillis() / 1000.0);
        m.put("timeout_s", totalTimeout.toMillis() / 1000.0);
        m.put("keep_alive", keepAlive.wireName());
        return m;
    }

    /** Never shows the API key or header values (they may hold credentials). */
    @Override
    public String toString() {
        return "Target[" + baseUrl + ", " + api.wireName() + ", model=" + model + ", apiKey="
                + (apiKey == null ? "none" : "***") + ", headers=" + headers.keySet() + "]";
    }
}
