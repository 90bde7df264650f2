package dev.headroom.cli;

import dev.headroom.kube.KubeSpec;
import dev.headroom.kube.KubeWorkers;
import dev.headroom.kube.Manifests;
import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code headroom kube COMMAND ...}: runs probe, sweep, search or calibrate with every load point shared by worker
 * pods it makes on Kubernetes for the run and deletes after (docs/distributed.md, "Kubernetes").
 */
@Command(
        name = "kube",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Run probe, sweep, search or calibrate with its load shared by worker pods on Kubernetes, made "
                + "for the run and deleted after (docs/distributed.md).")
public final class KubeCommand implements Callable<Integer> {
    private static final Set<String> COMMANDS = Set.of("probe", "sweep", "search", "calibrate");

    @Spec
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "N", required = true)
    int workers;

    @Option(names = "--namespace", paramLabel = "NS", defaultValue = "default")
    String namespace;

    @Option(names = "--image", paramLabel = "IMAGE", required = true)
    String image;

    @Option(names = "--worker-port", paramLabel = "PORT", defaultValue = "8790")
    int port;

    @Option(names = "--api-key-secret", paramLabel = "NAME[:KEY]")
    String apiKeySecret;

    @Option(names = "--worker-cpu", paramLabel = "CPU", defaultValue = "2")
    String cpu;

    @Option(names = "--worker-memory", paramLabel = "MEMORY", defaultValue = "2Gi")
    String memory;

    @Option(
            names = "--ready-timeout",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = DurationConverter.class)
    Duration ready;

    @Option(names = "--port-forward")
    boolean portForward;

    @Option(names = "--dry-run")
    boolean dryRun;

    @Parameters(
            index = "0",
            paramLabel = "COMMAND",
            description = "probe, sweep, search or calibrate; its own options follow (all but --workers).")
    String command;

    @Unmatched
    List<String> rest = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        if (!COMMANDS.contains(command)) {
            throw new BadInputException("bad command '" + command + "': kube runs probe, sweep, search or calibrate");
        }
        if (rest.contains("--virtual")) {
            throw new BadInputException("--virtual has no client to share out; drop it, or drop kube");
        }
        String run = "run-" + Long.toString(System.currentTimeMillis(), 36).toLowerCase(Locale.ROOT);
        KubeSpec pods = new KubeSpec(workers, namespace, image, port, run, apiKeyEnv(), apiKeySecret, cpu, memory);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (dryRun) {
            out.print(Manifests.dryRun(pods));
            out.flush();
            return ExitCodes.OK;
        }
        err.println("kube: making " + workers + " worker pods (job headroom-" + run + " in " + namespace + ")");
        err.flush();
        try (KubeWorkers w = KubeWorkers.start(pods, ready, portForward)) {
            Path token = Files.createTempFile(
                    "headroom-token-",
                    "",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(token, w.token());
                List<String> args = new ArrayList<>();
                args.add(command);
                args.addAll(rest);
                args.addAll(List.of("--workers", String.join(",", w.urls()), "--worker-token-file", token.toString()));
                CommandLine inner = Main.commandLine();
                inner.setOut(out);
                inner.setErr(err);
                return Main.execute(inner, args.toArray(String[]::new));
            } finally {
                Files.deleteIfExists(token);
            }
        }
    }

    /** The variable the command reads its API key from, which the pods get from {@code --api-key-secret}. */
    private String apiKeyEnv() {
        int i = rest.indexOf("--api-key-env");
        if (i >= 0 && i + 1 < rest.size()) return rest.get(i + 1);
        for (String a : rest) if (a.startsWith("--api-key-env=")) return a.substring("--api-key-env=".length());
        return "OPENAI_API_KEY";
    }
}
