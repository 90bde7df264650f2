package dev.headroom.cli;

import dev.headroom.distributed.Worker;
import dev.headroom.model.BadInputException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom worker}: run the shares of load points a coordinator hands over, until interrupted. */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Serve as a worker for a coordinator's --workers URL,... until Ctrl-C (docs/distributed.md).")
public final class WorkerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(names = "--host", defaultValue = "127.0.0.1")
    String host;

    @Option(names = "--port", defaultValue = "8790")
    int port;

    @Option(names = "--token-file", paramLabel = "FILE")
    Path tokenFile;

    @Override
    public Integer call() throws InterruptedException {
        String token = Worker.readToken(tokenFile, "--token-file");
        if (token == null || token.length() < 16) {
            throw new BadInputException("a worker needs the run token (16 characters or more) in $" + Worker.TOKEN_ENV
                    + " or {token-file}");
        }
        if (port < 0 || port > 65535) throw new BadInputException("{port} must be 0 to 65535, got " + port);
        Worker worker = Worker.start(new InetSocketAddress(host, port), token);
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            worker.close();
            stop.countDown();
        });
        Runtime.getRuntime().addShutdownHook(hook);
        PrintWriter out = spec.commandLine().getOut();
        out.println("headroom worker listening on " + worker.url() + "  (Ctrl-C to stop)");
        out.flush();
        try {
            stop.await();
        } finally {
            if (stop.getCount() > 0) {
                Runtime.getRuntime().removeShutdownHook(hook);
                worker.close();
            }
        }
        return ExitCodes.OK;
    }
}
