package dev.headroom.distributed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * N worker processes on this machine ({@code --workers N}): the same Java and class path as this process, its heap
 * and JVM flags, the run token in their environment (never on a command line), each ending with this process.
 */
public final class LocalWorkers implements AutoCloseable {
    private static final String PREFIX = "headroom worker listening on ";

    private final List<Process> processes;
    private final List<String> urls;
    private final List<Path> logs;
    private final String token;

    private LocalWorkers(List<Process> processes, List<String> urls, List<Path> logs, String token) {
        this.processes = processes;
        this.urls = urls;
        this.logs = logs;
        this.token = token;
    }

    /** A fresh run token: 32 hex digits from a secure random source. */
    public static String newToken() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Starts {@code n} workers and waits until each listens. */
    public static LocalWorkers start(int n) {
        String token = newToken();
        List<Process> started = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        try {
            for (int k = 0; k < n; k++) {
                Path log = Files.createTempFile("headroom-worker-" + k + "-", ".log");
                logs.add(log);
                ProcessBuilder pb = new ProcessBuilder(command()).redirectError(log.toFile());
                pb.environment().put(Worker.TOKEN_ENV, token);
                started.add(pb.start());
            }
            for (int k = 0; k < n; k++) urls.add(listening(started.get(k), logs.get(k)));
            return new LocalWorkers(started, urls, logs, token);
        } catch (IOException | RuntimeException e) {
            new LocalWorkers(started, urls, logs, token).close();
            throw e instanceof IOException io
                    ? new UncheckedIOException("cannot start workers: " + io.getMessage(), io)
                    : (RuntimeException) e;
        }
    }

    private static List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-X") || a.startsWith("--sun-misc") || a.startsWith("--enable-native-access")) cmd.add(a);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), WorkerMain.class.getName()));
        cmd.addAll(List.of("--parent", Long.toString(ProcessHandle.current().pid())));
        return cmd;
    }

    private static String listening(Process p, Path log) throws IOException {
        var reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return reader.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String first;
        try {
            first = line.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            first = null;
        }
        if (first == null || !first.startsWith(PREFIX)) {
            List<String> err = Files.readAllLines(log);
            throw new IOException("a worker did not start" + (err.isEmpty() ? "" : ": " + err.get(err.size() - 1)));
        }
        return first.substring(PREFIX.length()).trim();
    }

    public List<String> urls() {
        return List.copyOf(urls);
    }

    /** The token the workers accept. */
    public String token() {
        return token;
    }

    /** Worker {@code k}'s process, e.g. for a test that kills one. */
    Process process(int k) {
        return processes.get(k);
    }

    @Override
    public void close() {
        for (Process p : processes) p.destroy();
        for (Process p : processes) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        for (Path log : logs) {
            try {
                Files.deleteIfExists(log);
            } catch (IOException e) {
                // a temporary file left behind
            }
        }
    }
}
