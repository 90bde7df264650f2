package dev.headroom.cli;

import dev.headroom.sim.FaultPlan;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.http.SimServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom sim}: serve the simulated LLM over HTTP until interrupted. */
@Command(
        name = "sim",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Run the embedded LLM simulator as an OpenAI-compatible HTTP server until Ctrl-C.")
public final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Mixin
    SimulatorOptions engine;

    @Option(names = "--model", paramLabel = "NAME|FILE")
    String model;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42")
    long seed;

    @Option(names = "--host", defaultValue = "127.0.0.1")
    String host;

    @Option(names = "--port", defaultValue = "8000")
    int port;

    @Option(names = "--fault", paramLabel = "KIND=RATE")
    List<String> faults = List.of();

    @Option(names = "--fault-stall", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class)
    Duration faultStall;

    @Option(
            names = "--fault-slow-headers",
            paramLabel = "DURATION",
            defaultValue = "2s",
            converter = DurationConverter.class)
    Duration faultSlowHeaders;

    @Option(names = "--max-body-bytes", paramLabel = "N", defaultValue = "4194304")
    int maxBodyBytes;

    @Option(names = "--trace-out", paramLabel = "FILE")
    Path traceOut;

    @Option(names = "--tokenize", paramLabel = "DIALECT")
    String tokenize;

    @Option(names = "--usage", paramLabel = "PLACE")
    String usage;

    @Option(names = "--close-after-stream")
    boolean closeAfterStream;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", converter = DurationConverter.class)
    Duration idleTimeout;

    @Override
    public Integer call() throws InterruptedException {
        if (model != null) engine.model = model;
        EngineConfig config = engine.toConfig(seed);
        var rates = FaultPlan.parseRates(faults);
        FaultPlan plan = new FaultPlan(rates, faultStall, faultSlowHeaders, config.seed());
        ServerBehaviour behaviour = engine.behaviour();
        if (tokenize != null) behaviour = behaviour.withTokenize(ServerBehaviour.Tokenize.parse(tokenize));
        if (usage != null) behaviour = behaviour.withUsage(ServerBehaviour.Usage.parse(usage));
        if (closeAfterStream) behaviour = behaviour.withCloseAfterStream(true);
        if (idleTimeout != null) behaviour = behaviour.withIdleTimeout(idleTimeout);
        var serverConfig = new SimServer.Config(host, port, config, plan, maxBodyBytes, traceOut, 10_000, behaviour);
        SimServer server = SimServer.start(serverConfig);
        CountDownLatch stop = new CountDownLatch(1);
        // Ctrl-C runs the hook: close the server (flushing --trace-out) before the JVM exits.
        Thread hook = new Thread(() -> {
            server.close();
            stop.countDown();
        });
        Runtime.getRuntime().addShutdownHook(hook);
        PrintWriter out = spec.commandLine().getOut();
        serverConfig.describe().forEach(out::println);
        out.println("model: " + server.servedModel());
        out.println("serving at " + server.baseUri() + "/v1  (Ctrl-C to stop)");
        out.flush();
        try {
            stop.await();
        } finally {
            // Reached without the hook when the calling thread is interrupted (tests, embedding).
            if (stop.getCount() > 0) {
                Runtime.getRuntime().removeShutdownHook(hook);
                server.close();
            }
        }
        return ExitCodes.OK;
    }
}
