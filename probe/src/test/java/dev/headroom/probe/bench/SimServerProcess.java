package dev.headroom.probe.bench;

import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import dev.headroom.sim.profile.Profiles;

/** Runs the simulator in its own JVM for benchmarks: prints its base URL, serves until stdin closes. */
public final class SimServerProcess {
    private SimServerProcess() {}

    public static void main(String[] args) throws Exception {
        int maxSeqs = Integer.parseInt(args[1]);
        EngineConfig engine = EngineConfig.defaults(Profiles.hardware(args[0]), Profiles.model("llama-3.1-8b"))
                .withMaxNumSeqs(maxSeqs);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine))) {
            System.out.println(sim.baseUri());
            System.out.flush();
            while (System.in.read() >= 0) {
                // serve until the parent closes our stdin
            }
        }
    }

    /** Starts it with this JVM's classpath; returns the process (its first stdout line is the URL). */
    static Process start(String hardware, int maxSeqs) throws java.io.IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-XX:+UseZGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        SimServerProcess.class.getName(),
                        hardware,
                        String.valueOf(maxSeqs))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static final class Path {
        static java.nio.file.Path of(String first, String... more) {
            return java.nio.file.Path.of(first, more);
        }
    }
}
