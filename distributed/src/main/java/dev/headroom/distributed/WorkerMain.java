package dev.headroom.distributed;

import java.net.InetSocketAddress;

/**
 * The worker process {@link LocalWorkers} starts: {@code [--port N] [--bind HOST] [--parent PID]}; the run token from
 * {@value Worker#TOKEN_ENV}. Prints {@code headroom worker listening on URL} once, then serves until it is stopped or
 * its parent process ends.
 */
public final class WorkerMain {
    private WorkerMain() {}

    public static void main(String[] args) throws InterruptedException {
        int port = 0;
        String bind = "127.0.0.1";
        long parent = -1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--bind" -> bind = args[i + 1];
                case "--parent" -> parent = Long.parseLong(args[i + 1]);
                default -> {
                    System.err.println("unknown option " + args[i] + ": valid are --port, --bind, --parent");
                    System.exit(2);
                }
            }
        }
        String token = System.getenv(Worker.TOKEN_ENV);
        if (token == null || token.length() < 16) {
            System.err.println("set " + Worker.TOKEN_ENV + " to the run token (16 characters or more)");
            System.exit(2);
        }
        Worker worker = Worker.start(new InetSocketAddress(bind, port), token);
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close));
        System.out.println("headroom worker listening on " + worker.url());
        System.out.flush();
        if (parent > 0) {
            ProcessHandle.of(parent)
                    .ifPresentOrElse(p -> p.onExit().thenRun(() -> System.exit(0)), () -> System.exit(0));
        }
        Thread.currentThread().join();
    }
}
