package dev.headroom.kube;

import dev.headroom.distributed.Worker;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The objects a run makes, as fabric8's typed values: a Secret with the run token, a headless Service naming the
 * pods, and an Indexed Job of {@code headroom worker} pods, all labelled with the run. Secrets' values never appear in
 * what {@link #dryRun} prints.
 */
public final class Manifests {
    /** The label every object of a run carries. */
    public static final String RUN_LABEL = "headroom.dev/run";

    static final String APP_LABEL = "app.kubernetes.io/name";
    static final String TOKEN_KEY = "token";

    private Manifests() {}

    /** The Secret, the Service and the Job for {@code spec}, the Secret holding {@code token}. */
    public static List<HasMetadata> of(KubeSpec spec, String token) {
        Map<String, String> labels = Map.of(APP_LABEL, "headroom-worker", RUN_LABEL, spec.run());
        Secret secret = new SecretBuilder()
                .withMetadata(meta(spec, labels))
                .withType("Opaque")
                .withStringData(Map.of(TOKEN_KEY, token))
                .build();
        Service service = new ServiceBuilder()
                .withMetadata(meta(spec, labels))
                .withNewSpec()
                .withClusterIP("None")
                .withSelector(Map.of(RUN_LABEL, spec.run()))
                .addNewPort()
                .withName("worker")
                .withPort(spec.port())
                .endPort()
                .endSpec()
                .build();
        List<EnvVar> env = new ArrayList<>();
        env.add(fromSecret(Worker.TOKEN_ENV, spec.name(), TOKEN_KEY));
        String[] key = spec.apiKeyRef();
        if (key != null) {
            env.add(fromSecret(spec.apiKeyEnv(), key[0], key[1]));
        }
        Map<String, Quantity> resources =
                Map.of("cpu", new Quantity(spec.cpu()), "memory", new Quantity(spec.memory()));
        Job job = new JobBuilder()
                .withMetadata(meta(spec, labels))
                .withNewSpec()
                .withCompletionMode("Indexed")
                .withCompletions(spec.workers())
                .withParallelism(spec.workers())
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withSubdomain(spec.name())
                .addNewContainer()
                .withName("worker")
                .withImage(spec.image())
                .withArgs("worker", "--host", "0.0.0.0", "--port", Integer.toString(spec.port()))
                .withEnv(env)
                .addNewPort()
                .withName("worker")
                .withContainerPort(spec.port())
                .endPort()
                .withNewReadinessProbe()
                .withNewTcpSocket()
                .withNewPort(spec.port())
                .endTcpSocket()
                .withPeriodSeconds(1)
                .endReadinessProbe()
                .withNewResources()
                .withRequests(resources)
                .withLimits(resources)
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        return List.of(secret, service, job);
    }

    /** The name, namespace and labels every object of the run carries. */
    private static ObjectMeta meta(KubeSpec spec, Map<String, String> labels) {
        return new ObjectMetaBuilder()
                .withName(spec.name())
                .withNamespace(spec.namespace())
                .withLabels(labels)
                .build();
    }

    /** A variable whose value is key {@code key} of Secret {@code secret}: never the value itself. */
    private static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(secret)
                .withKey(key)
                .endSecretKeyRef()
                .endValueFrom()
                .build();
    }

    /** The manifests as YAML documents, the Secret's values replaced by a note: what {@code --dry-run} prints. */
    public static String dryRun(KubeSpec spec) {
        StringBuilder out = new StringBuilder();
        KubernetesSerialization yaml = new KubernetesSerialization();
        for (HasMetadata o : of(spec, "<generated for each run, never printed>")) out.append(yaml.asYaml(o));
        return out.toString();
    }
}
