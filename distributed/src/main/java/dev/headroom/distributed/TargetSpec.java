package dev.headroom.distributed;

import dev.headroom.model.BadInputException;
import dev.headroom.probe.Api;
import dev.headroom.probe.KeepAlive;
import dev.headroom.probe.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The server a worker sends to, as the coordinator hands it over: everything of the {@link Target} but the API key,
 * which each worker reads from its own environment variable or file of the same name (never the wire).
 *
 * @param apiKeyEnv  the environment variable holding the key, or null
 * @param apiKeyFile the file holding it (first line), or null; it wins over the variable
 */
public record TargetSpec(
        String url,
        String api,
        String model,
        String apiKeyEnv,
        String apiKeyFile,
        Map<String, String> headers,
        boolean insecure,
        String keepAlive,
        long connectTimeoutMs,
        long firstTokenTimeoutMs,
        long totalTimeoutMs) {

    /** {@code t} without its key, which the workers take from {@code apiKeyEnv} or {@code apiKeyFile}. */
    public static TargetSpec of(Target t, String apiKeyEnv, Path apiKeyFile) {
        return new TargetSpec(
                t.baseUrl().toString(),
                t.api().wireName(),
                t.model(),
                apiKeyEnv,
                apiKeyFile == null ? null : apiKeyFile.toAbsolutePath().toString(),
                t.headers(),
                t.insecure(),
                t.keepAlive().wireName(),
                t.connectTimeout().toMillis(),
                t.firstTokenTimeout().toMillis(),
                t.totalTimeout().toMillis());
    }

    /** The target, its key read here. */
    Target toTarget() {
        return new Target(
                URI.create(url),
                Api.parse(api),
                model,
                apiKey(),
                headers == null ? Map.of() : headers,
                insecure,
                Duration.ofMillis(connectTimeoutMs),
                Duration.ofMillis(firstTokenTimeoutMs),
                Duration.ofMillis(totalTimeoutMs),
                KeepAlive.parse(keepAlive));
    }

    private String apiKey() {
        if (apiKeyFile != null) {
            try {
                return Files.readAllLines(Path.of(apiKeyFile)).stream()
                        .findFirst()
                        .map(String::trim)
                        .orElse(null);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the API key file " + apiKeyFile + ": " + e.getMessage(), e);
            }
        }
        if (apiKeyEnv == null) return null;
        String v = System.getenv(apiKeyEnv);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Refuses what cannot be handed over. */
    public TargetSpec {
        if (url == null) throw new BadInputException("a worker needs the server's {url}");
    }
}
