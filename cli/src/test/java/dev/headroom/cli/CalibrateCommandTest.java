package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom calibrate} against the simulator with step terms the fit never sees: the twin it writes must predict
 * shapes and loads it did not probe.
 */
class CalibrateCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** An H100 whose terms are far from the shipped profile's (the twin starts from the shipped one). */
    private static final String HIDDEN_TERMS = """
            memory_efficiency: 0.68
            compute_efficiency: 0.47
            step_overhead_ms: 2.6
            allreduce_latency_us: 12
            gemm_half_tokens: 180
            seq_overhead_us: 24
            layer_overhead_us: 6
            request_overhead_ms: 31
            """;

    private static Path hiddenHardware(Path tmp) throws IOException {
        String stock = Files.readString(Path.of("..", "configs", "hardware", "h100-sxm.yaml"));
        StringBuilder b = new StringBuilder();
        for (String line : stock.split("\n")) {
            String key = line.replaceAll(":.*", "").trim();
            if (!HIDDEN_TERMS.contains(key + ":") || line.startsWith(" ") || line.startsWith("#")) {
                b.append(line).append('\n');
            }
        }
        Path f = tmp.resolve("hidden-h100.yaml");
        Files.writeString(f, b + HIDDEN_TERMS);
        return f;
    }

    private static JsonNode probe(Path out, List<String> engine, String... point) throws IOException {
        List<String> args = new ArrayList<>(List.of("probe", "--virtual", "--no-report", "--out", out.toString()));
        args.addAll(engine);
        args.addAll(List.of(point));
        var r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(out.resolve("summary.json").toFile());
    }

    private static double searchMaxRate(Path out, List<String> engine) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "search",
                "--virtual",
                "--objective",
                "max-rate",
                "--slo",
                "ttft:p95<1s",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--min",
                "1",
                "--max",
                "64",
                "--tolerance",
                "0.01",
                "--probe-requests",
                "400",
                "--no-report",
                "--out",
                out.toString()));
        args.addAll(engine);
        var r = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(out.resolve("search.json").toFile())
                .at("/result/value")
                .asDouble();
    }

    /** Calibrates the hidden server, then compares the twin with it where no probe went. */
    private static void twinPredictsUnprobedShapes(Path tmp, List<String> server) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "calibrate",
                "--virtual",
                "--scale",
                "0.5",
                "--folds",
                "0",
                "--no-report",
                "--out",
                tmp.resolve("cal").toString()));
        args.addAll(server);
        var cal = CliTest.run(args.toArray(String[]::new));
        assertEquals(0, cal.code(), cal.err());
        Path yaml = tmp.resolve("cal/calibration.yaml");
        assertTrue(Files.readString(yaml).contains("schema: \"headroom.calibration/v1\""));
        List<String> twin = List.of("--profile", yaml.toString(), "--sim-noise", "0", "--sim-stall-probability", "0");
        String[][] points = {
            {"--concurrency", "1", "--isl", "1024", "--osl", "128", "--requests", "10"},
            {
                "--concurrency",
                "24",
                "--isl",
                "1536",
                "--osl",
                "384",
                "--requests",
                "96",
                "--ramp",
                "2s",
                "--warmup-requests",
                "24"
            },
        };
        for (int i = 0; i < points.length; i++) {
            JsonNode truth = probe(tmp.resolve("truth" + i), server, points[i]);
            JsonNode pred = probe(tmp.resolve("twin" + i), twin, points[i]);
            for (String m : List.of("/metrics/ttft_ms/p50", "/metrics/tpot_ms/p50", "/metrics/output_tokens_per_s")) {
                double t = truth.at(m).asDouble(), p = pred.at(m).asDouble();
                assertTrue(
                        Math.abs(p / t - 1) < 0.05,
                        "point " + i + " " + m + ": twin " + p + ", server " + t + "\n" + cal.out());
            }
        }
        double truth = searchMaxRate(tmp.resolve("search-truth"), server);
        double pred = searchMaxRate(tmp.resolve("search-twin"), twin);
        assertTrue(Math.abs(pred / truth - 1) < 0.05, "max rate: twin " + pred + ", server " + truth);
    }

    /** The hidden server, noise off, with {@code scheduler} options. */
    private static List<String> hiddenServer(Path tmp, String... scheduler) throws IOException {
        List<String> server =
                new ArrayList<>(List.of("--sim-hardware", hiddenHardware(tmp).toString()));
        server.addAll(List.of(scheduler));
        server.addAll(List.of("--sim-noise", "0", "--sim-stall-probability", "0"));
        return server;
    }

    @Test
    void twinOfAVllmLikeServerPredictsWhatItDidNotProbe(@TempDir Path tmp) throws IOException {
        twinPredictsUnprobedShapes(tmp, hiddenServer(tmp));
        // The saturating probe reads about 250 served at once; the cap matched on the twin is the server's 256 or
        // near it.
        int cap = cap(Files.readString(tmp.resolve("cal/calibration.yaml")));
        assertTrue(cap >= 243 && cap <= 269, "max_num_seqs " + cap);
    }

    private static int cap(String calibrationYaml) {
        return Integer.parseInt(calibrationYaml.replaceAll("(?s).*max_num_seqs: (\\d+).*", "$1"));
    }

    @Test
    void twinOfASlotServerWithoutChunkedPrefillPredictsWhatItDidNotProbe(@TempDir Path tmp) throws IOException {
        twinPredictsUnprobedShapes(tmp, hiddenServer(tmp, "--sim-max-num-seqs", "8", "--no-sim-chunked-prefill"));
        String yaml = Files.readString(tmp.resolve("cal/calibration.yaml"));
        assertTrue(yaml.contains("max_num_seqs: 8"), yaml);
        assertTrue(yaml.contains("chunked_prefill: false"), yaml);
    }

    @Test
    void twinOfAnSglangLikeServerFindsItsSchedulerAndPredictsWhatItDidNotProbe(@TempDir Path tmp) throws IOException {
        // Separate prefill and decode steps, each decided a step ahead: SGLang 0.4+ as it runs by default.
        twinPredictsUnprobedShapes(tmp, hiddenServer(tmp, "--no-sim-mixed-batches", "--sim-overlap-scheduling"));
        String yaml = Files.readString(tmp.resolve("cal/calibration.yaml"));
        assertTrue(yaml.contains("mixed_batches: false") && yaml.contains("overlap_scheduling: true"), yaml);
        // The saturating probe reads about 204 served at once (prompts waiting for prefill steps of their own count
        // as waiting); the twin, read the same way, puts the cap near the server's 256.
        int cap = cap(yaml);
        assertTrue(cap >= 230 && cap <= 282, "max_num_seqs " + cap);
    }
}
