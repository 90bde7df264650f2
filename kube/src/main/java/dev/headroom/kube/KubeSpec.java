package dev.headroom.kube;

import dev.headroom.model.BadInputException;
import java.util.regex.Pattern;

/**
 * What worker pods to make for one run.
 *
 * @param workers      pods, one worker each
 * @param namespace    where they go
 * @param image        the image holding {@code headroom} (the repository's Dockerfile builds one)
 * @param port         the port each worker listens on
 * @param run          the run's name: the objects are {@code headroom-RUN}, labelled {@code headroom.dev/run=RUN}
 * @param apiKeyEnv    the variable the workers read the API key from (as the coordinator's {@code --api-key-env})
 * @param apiKeySecret an existing Secret holding the key, {@code NAME} or {@code NAME:KEY} (default key
 *                     {@code api-key}), set as {@code apiKeyEnv} in every pod; null for none
 * @param cpu          CPU each worker requests and is limited to, in Kubernetes' notation ({@code 2}, {@code 1500m})
 * @param memory       memory each worker requests and is limited to ({@code 2Gi})
 */
public record KubeSpec(
        int workers,
        String namespace,
        String image,
        int port,
        String run,
        String apiKeyEnv,
        String apiKeySecret,
        String cpu,
        String memory) {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    public KubeSpec {
        if (workers < 1 || workers > 1000) {
            throw new BadInputException("{workers} must be 1 to 1000 pods, got " + workers);
        }
        if (namespace == null || !DNS_LABEL.matcher(namespace).matches() || namespace.length() > 63) {
            throw new BadInputException("bad {namespace} '" + namespace + "': a DNS label (lower-case letters, "
                    + "digits and '-', at most 63)");
        }
        if (image == null || image.isBlank()) throw new BadInputException("give {image}: an image holding headroom");
        if (port < 1 || port > 65535) throw new BadInputException("{port} must be 1 to 65535, got " + port);
        if (run == null || !DNS_LABEL.matcher(run).matches() || run.length() > 40) {
            throw new BadInputException("bad run name '" + run + "': lower-case letters, digits and '-', at most 40");
        }
    }

    /** The name of everything made for the run. */
    String name() {
        return "headroom-" + run;
    }

    /** The Secret and key the API key is read from, or null. */
    String[] apiKeyRef() {
        if (apiKeySecret == null) return null;
        int colon = apiKeySecret.indexOf(':');
        return colon < 0
                ? new String[] {apiKeySecret, "api-key"}
                : new String[] {apiKeySecret.substring(0, colon), apiKeySecret.substring(colon + 1)};
    }
}
