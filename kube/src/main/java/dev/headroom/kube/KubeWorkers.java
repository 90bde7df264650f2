package dev.headroom.kube;

import dev.headroom.distributed.LocalWorkers;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.fabric8.kubernetes.client.readiness.Readiness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The worker pods of one run: made, waited for until each is ready, their addresses handed out, and everything made
 * deleted on {@link #close} — also when making or waiting fails, and from a shutdown hook on Ctrl-C.
 */
public final class KubeWorkers implements AutoCloseable {
    private final KubernetesClient client;
    private final KubeSpec spec;
    private final String token;
    private final List<HasMetadata> made = new ArrayList<>();
    private final List<LocalPortForward> forwards = new ArrayList<>();
    private final List<String> urls = new ArrayList<>();
    private final Thread hook = new Thread(this::delete);
    private boolean deleted;
    private boolean ownsClient;

    private KubeWorkers(KubernetesClient client, KubeSpec spec, String token) {
        this.client = client;
        this.spec = spec;
        this.token = token;
    }

    /**
     * {@link #start(KubernetesClient, KubeSpec, Duration, boolean)} through a client configured as kubectl is (the
     * kubeconfig's current context, or the pod's service account inside a cluster), closed with the workers.
     */
    public static KubeWorkers start(KubeSpec spec, Duration ready, boolean portForward) {
        KubernetesClient client = new KubernetesClientBuilder().build();
        try {
            KubeWorkers w = start(client, spec, ready, portForward);
            w.ownsClient = true;
            return w;
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /**
     * Makes the run's objects in {@code spec}'s namespace and waits until {@code spec.workers()} pods are ready
     * (at most {@code ready}); with {@code portForward} each pod is reached through a local port forwarded by the
     * API server (a coordinator outside the cluster), else at its pod IP (one inside it).
     *
     * @throws UncheckedIOException when the cluster refuses an object or the pods are not ready in time (after
     *                              deleting what was made)
     */
    public static KubeWorkers start(KubernetesClient client, KubeSpec spec, Duration ready, boolean portForward) {
        KubeWorkers w = new KubeWorkers(client, spec, LocalWorkers.newToken());
        Runtime.getRuntime().addShutdownHook(w.hook);
        try {
            for (HasMetadata o : Manifests.of(spec, w.token)) {
                w.made.add(client.resource(o).inNamespace(spec.namespace()).create());
            }
            List<Pod> pods = w.awaitReady(ready);
            for (Pod p : pods) {
                if (portForward) {
                    LocalPortForward f = client.pods()
                            .inNamespace(spec.namespace())
                            .withName(p.getMetadata().getName())
                            .portForward(spec.port());
                    w.forwards.add(f);
                    w.urls.add("http://127.0.0.1:" + f.getLocalPort());
                } else {
                    w.urls.add("http://" + p.getStatus().getPodIP() + ":" + spec.port());
                }
            }
            return w;
        } catch (KubernetesClientException | IllegalStateException e) {
            w.close();
            String why = e instanceof KubernetesClientException
                    ? "the cluster refused or could not be reached: "
                            + rootMessage(e)
                            + " (the client is configured as kubectl is: $KUBECONFIG, ~/.kube/config, or "
                            + "the pod's service account)"
                    : e.getMessage();
            throw new UncheckedIOException("kube: " + why, new IOException(e));
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage();
        return (m == null || m.isBlank() ? t.getClass().getSimpleName() : m)
                + (t == e ? "" : " (" + e.getMessage() + ")");
    }

    private List<Pod> awaitReady(Duration ready) {
        long deadline = System.nanoTime() + ready.toNanos();
        while (true) {
            List<Pod> pods = client.pods()
                    .inNamespace(spec.namespace())
                    .withLabel(Manifests.RUN_LABEL, spec.run())
                    .list()
                    .getItems();
            List<Pod> up = pods.stream()
                    .filter(Readiness::isPodReady)
                    .sorted(Comparator.comparing(KubeWorkers::index))
                    .toList();
            if (up.size() >= spec.workers()) return up.subList(0, spec.workers());
            for (Pod p : pods) {
                String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                if ("Failed".equals(phase)) {
                    throw new IllegalStateException(
                            "worker pod " + p.getMetadata().getName() + " failed");
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(up.size() + " of " + spec.workers() + " worker pods ready after "
                        + ready.toSeconds() + " s (kubectl -n " + spec.namespace() + " describe job " + spec.name()
                        + ")");
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the worker pods");
            }
        }
    }

    /** A pod's completion index (the Job's annotation), so that worker k is pod k. */
    private static int index(Pod p) {
        var a = p.getMetadata().getAnnotations();
        String i = a == null ? null : a.get("batch.kubernetes.io/job-completion-index");
        try {
            return i == null ? Integer.MAX_VALUE : Integer.parseInt(i);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    /** The workers' base URLs, worker 0 first. */
    public List<String> urls() {
        return List.copyOf(urls);
    }

    /** The run token the workers accept. */
    public String token() {
        return token;
    }

    @Override
    public void close() {
        delete();
        if (ownsClient) client.close();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook is running or has run
        }
    }

    private synchronized void delete() {
        if (deleted) return;
        deleted = true;
        for (LocalPortForward f : forwards) {
            try {
                f.close();
            } catch (IOException e) {
                // the forward ends with the pod anyway
            }
        }
        // Newest first: the Job (and its pods, in the background), then the Service and the Secret.
        for (int i = made.size() - 1; i >= 0; i--) {
            try {
                client.resource(made.get(i))
                        .inNamespace(spec.namespace())
                        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND)
                        .delete();
            } catch (KubernetesClientException e) {
                // left behind: the label says whose it is
            }
        }
    }
}
