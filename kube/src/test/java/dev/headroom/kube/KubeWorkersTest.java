package dev.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.distributed.Worker;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker pods' objects as fabric8's typed values, and their life on fabric8's mock API server in CRUD mode (no
 * controller runs there: the test plays the Job controller and makes the pods itself; a real cluster is not
 * available here).
 */
@EnableKubernetesMockClient(crud = true)
class KubeWorkersTest {
    static KubernetesClient client;

    private static KubeSpec spec(int workers) {
        return spec(workers, "r1");
    }

    /** Each test its own run: the mock server's objects outlive a test (no controller collects the pods). */
    private static KubeSpec spec(int workers, String run) {
        return new KubeSpec(
                workers, "load", "ghcr.io/x/headroom:1", 8790, run, "OPENAI_API_KEY", "llm-key:token", "2", "2Gi");
    }

    @Test
    void theManifestsParseBackIntoTheClientsTypedObjects() {
        KubernetesSerialization yaml = new KubernetesSerialization();
        List<HasMetadata> made = Manifests.of(spec(4), "t0k3n-t0k3n-t0k3n");
        for (HasMetadata o : made) {
            HasMetadata back = yaml.unmarshal(yaml.asYaml(o));
            assertEquals(o, back, o.getKind() + " survives YAML");
            assertEquals("r1", back.getMetadata().getLabels().get(Manifests.RUN_LABEL));
        }
        Job job = (Job) made.get(2);
        assertEquals("Indexed", job.getSpec().getCompletionMode());
        assertEquals(4, job.getSpec().getParallelism());
        assertEquals(4, job.getSpec().getCompletions());
        var c = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertEquals(List.of("worker", "--host", "0.0.0.0", "--port", "8790"), c.getArgs());
        EnvVar token = c.getEnv().getFirst();
        assertEquals(Worker.TOKEN_ENV, token.getName());
        assertEquals("headroom-r1", token.getValueFrom().getSecretKeyRef().getName());
        EnvVar key = c.getEnv().get(1);
        assertEquals("OPENAI_API_KEY", key.getName());
        assertEquals("llm-key", key.getValueFrom().getSecretKeyRef().getName());
        assertEquals("token", key.getValueFrom().getSecretKeyRef().getKey());
        for (EnvVar e : c.getEnv()) assertEquals(null, e.getValue(), e.getName() + " comes from a Secret, not a value");
        assertEquals("None", ((Service) made.get(1)).getSpec().getClusterIP(), "headless");
    }

    @Test
    void aDryRunPrintsNoSecret() {
        String printed = Manifests.dryRun(spec(2));
        assertTrue(printed.contains("kind: \"Job\"") || printed.contains("kind: Job"), printed);
        assertTrue(printed.contains("never printed"), printed);
        String real = ((Secret) Manifests.of(spec(2), "abcdef0123456789abcdef").getFirst())
                .getStringData()
                .get("token");
        assertEquals("abcdef0123456789abcdef", real);
        assertFalse(printed.contains(real));
    }

    /** Plays the Job controller: once the Job exists, makes its pods, ready, with their index and IP. */
    private static Thread controller(int pods) {
        return Thread.ofPlatform().start(() -> {
            try {
                while (client.batch()
                                .v1()
                                .jobs()
                                .inNamespace("load")
                                .withName("headroom-r1")
                                .get()
                        == null) {
                    Thread.sleep(50);
                }
                for (int i = pods - 1; i >= 0; i--) {
                    client.pods()
                            .inNamespace("load")
                            .resource(new PodBuilder()
                                    .withNewMetadata()
                                    .withName("headroom-r1-" + i)
                                    .addToLabels(Manifests.RUN_LABEL, "r1")
                                    .addToAnnotations("batch.kubernetes.io/job-completion-index", "" + i)
                                    .endMetadata()
                                    .withNewStatus()
                                    .withPhase("Running")
                                    .withPodIP("10.0.0." + (10 + i))
                                    .addNewCondition()
                                    .withType("Ready")
                                    .withStatus("True")
                                    .endCondition()
                                    .endStatus()
                                    .build())
                            .create();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @Test
    void theRunsObjectsAreMadeLabelledAndDeletedWhenItEnds() throws Exception {
        Thread pods = controller(3);
        try (KubeWorkers w = KubeWorkers.start(client, spec(3), Duration.ofSeconds(20), false)) {
            assertEquals(
                    List.of("http://10.0.0.10:8790", "http://10.0.0.11:8790", "http://10.0.0.12:8790"),
                    w.urls(),
                    "worker k is the pod of completion index k");
            assertNotNull(client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("load")
                    .withName("headroom-r1")
                    .get());
            assertNotNull(client.services()
                    .inNamespace("load")
                    .withName("headroom-r1")
                    .get());
            Secret s =
                    client.secrets().inNamespace("load").withName("headroom-r1").get();
            assertNotNull(s);
            assertEquals("r1", s.getMetadata().getLabels().get(Manifests.RUN_LABEL));
            assertTrue(w.token().length() >= 16);
        }
        pods.join();
        assertNothingLeft("headroom-r1");
    }

    @Test
    void podsThatAreNeverReadyLeaveNothingBehind() {
        var e = assertThrows(
                UncheckedIOException.class,
                () -> KubeWorkers.start(client, spec(2, "never"), Duration.ofSeconds(1), false));
        assertTrue(e.getMessage().contains("0 of 2 worker pods ready"), e.getMessage());
        assertNothingLeft("headroom-never");
    }

    private static void assertNothingLeft(String name) {
        assertEquals(
                null,
                client.batch().v1().jobs().inNamespace("load").withName(name).get(),
                "the Job");
        assertEquals(null, client.services().inNamespace("load").withName(name).get(), "the Service");
        assertEquals(null, client.secrets().inNamespace("load").withName(name).get(), "the Secret");
    }
}
