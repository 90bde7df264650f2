package dev.headroom.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.cli.HiddenServers;
import dev.headroom.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code calibrate} against simulated servers whose step terms are hidden from it ({@link HiddenServers}), one per
 * server people run: vLLM-, SGLang-, llama.cpp- (4 slots of 1,024 tokens, and 2 slots), Ollama- and TGI-like, and 8
 * slots without chunked prefill; noise on
 * (σ 0.02), at the default scale. Per server: the share of calibration requests lost or waiting over the 60-s
 * first-token timeout, the cap read against the server's, the twin's error on its check points (TTFT p50, TPOT p50,
 * output tokens/s), the max concurrency under {@code ttft:p95<1s} searched on the twin against the same search on the
 * server, and the time the calibration would take in real time (the virtual clock's sum over its probes). Run (after
 * {@code ./mvnw install -DskipTests}): {@code ./mvnw -q -Pbench test -pl cli -Dtest=CalibrationBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}; writes cli/target/benchmark-calibration.json.
 */
@Tag("benchmark")
class CalibrationBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** One hidden server: its name, its simulator options, its true cap. */
    /**
     * One hidden server: its name, its true cap, its simulator options, and what calibrate is told of it and searched
     * under.
     *
     * @param cpu on the desktop CPU (its terms hidden, the twin starting from the nominal profile), else the H100
     */
    record Server(String name, int cap, List<String> options, boolean cpu, List<String> twin, String slo) {
        Server(String name, int cap, List<String> options) {
            this(name, cap, options, false, List.of(), "ttft:p95<1s");
        }
    }

    private static final List<Server> SERVERS = List.of(
            new Server("vllm-like", 256, List.of()),
            new Server("sglang-like", 256, List.of("--sim-server", "sglang")),
            new Server("8-slots-whole-prompts", 8, List.of("--sim-max-num-seqs", "8", "--no-sim-chunked-prefill")),
            new Server("llama.cpp-like", 4, List.of("--sim-server", "llama.cpp")),
            new Server("llama.cpp-2-slots", 2, List.of("--sim-server", "llama.cpp", "--sim-max-num-seqs", "2")),
            new Server("ollama-like", 4, List.of("--sim-server", "ollama")),
            new Server("tgi-like", 32, List.of("--sim-server", "tgi")),
            // A laptop's llama.cpp: an 8B model in 4 bits on a desktop CPU, prompts at tens of ms a token.
            new Server(
                    "llama.cpp-on-a-cpu",
                    4,
                    List.of("--sim-server", "llama.cpp", "--sim-weight-dtype", "int4"),
                    true,
                    List.of("--twin-weight-dtype", "int4"),
                    "ttft:p95<30s"));

    /** The desktop CPU's terms ({@link HiddenServers#desktopCpu}): as a profile starts them, and hidden. */
    private static final String CPU_NOMINAL = """
            gemm_half_tokens: 1
            memory_efficiency: 0.6
            compute_efficiency: 0.5
            step_overhead_ms: 2
            allreduce_latency_us: 10
            """;

    private static final String CPU_HIDDEN = """
            gemm_half_tokens: 1
            memory_efficiency: 0.45
            compute_efficiency: 0.3
            step_overhead_ms: 5
            allreduce_latency_us: 10
            seq_overhead_us: 60
            request_overhead_ms: 40
            """;

    record Run(int code, String out, String err) {}

    private static Run cli(List<String> args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = Main.execute(cl, args.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static double search(Path out, String slo, boolean slow, List<String> server) throws Exception {
        List<String> args =
                new ArrayList<>(List.of("search", "--virtual", "--slo", slo, "--no-report", "--out", out.toString()));
        // A request on the CPU takes a minute: probes by count, not by the default duration.
        if (slow) args.addAll(List.of("--probe-requests", "24", "--probe-duration", "36000s", "--max", "32"));
        Run r = cli(concat(args, server));
        if (r.code() != 0) throw new IllegalStateException(r.err());
        return JSON.readTree(out.resolve("search.json").toFile())
                .at("/result/value")
                .asDouble();
    }

    @Test
    void calibrateEveryServerKind() throws Exception {
        Path tmp = Files.createTempDirectory("calibration-benchmark");
        Path hidden = HiddenServers.hiddenHardware(tmp);
        Path cpuHidden = HiddenServers.desktopCpu(tmp, "cpu-hidden.yaml", CPU_HIDDEN);
        Path cpu = HiddenServers.desktopCpu(tmp, "cpu.yaml", CPU_NOMINAL);
        ArrayNode rows = JSON.createArrayNode();
        for (Server s : SERVERS) {
            List<String> server = concat(
                    List.of("--sim-hardware", (s.cpu() ? cpuHidden : hidden).toString(), "--seed", "7"), s.options());
            Path cal = tmp.resolve(s.name());
            long t0 = System.nanoTime();
            List<String> told = concat(s.twin(), s.cpu() ? List.of("--twin-hardware", cpu.toString()) : List.of());
            Run r = cli(concat(
                    concat(
                            List.of("calibrate", "--virtual", "--folds", "0", "--no-report", "--out", cal.toString()),
                            told),
                    server));
            double computeSeconds = (System.nanoTime() - t0) / 1e9;
            if (r.code() != 0) throw new IllegalStateException(s.name() + ": " + r.err());
            long requests = 0, lost = 0, late = 0;
            double virtualSeconds = 0;
            try (var probes = Files.list(cal.resolve("probes"))) {
                for (Path p : probes.sorted().toList()) {
                    double end = 0;
                    for (String line : Files.readAllLines(p.resolve("requests.jsonl"))) {
                        JsonNode q = JSON.readTree(line);
                        requests++;
                        end = Math.max(end, q.path("end_s").asDouble());
                        if (!q.path("outcome").asText().equals("completed")) lost++;
                        else if (q.path("first_token_s").asDouble()
                                        - q.path("sent_s").asDouble()
                                > 60) late++;
                    }
                    virtualSeconds += end;
                }
            }
            JsonNode yaml = YAML.readTree(cal.resolve("calibration.yaml").toFile());
            int cap = yaml.at("/engine/max_num_seqs").asInt();
            double worstCheck = 0;
            List<String> checks = new ArrayList<>();
            for (JsonNode c : yaml.path("checks")) {
                for (JsonNode m : c.path("metrics")) {
                    String metric = m.path("metric").asText();
                    if (metric.contains("p95")) continue;
                    worstCheck = Math.max(worstCheck, Math.abs(m.path("error").asDouble()));
                    checks.add(c.path("name").asText() + " " + metric + " "
                            + String.format(
                                    Locale.ROOT,
                                    "%+.1f%%",
                                    100 * m.path("error").asDouble()));
                }
            }
            double live = search(tmp.resolve(s.name() + "-search-live"), s.slo(), s.cpu(), server);
            double twin = search(
                    tmp.resolve(s.name() + "-search-twin"),
                    s.slo(),
                    s.cpu(),
                    List.of("--profile", cal.resolve("calibration.yaml").toString(), "--seed", "7"));
            ObjectNode row = rows.addObject();
            row.put("server", s.name());
            row.put("slo", s.slo());
            row.put("requests", requests);
            row.put("lost", lost);
            row.put("late_first_token", late);
            row.put("lost_or_late_share", (double) (lost + late) / requests);
            row.put("cap_true", s.cap());
            row.put("cap_read", cap);
            row.put("structure", yaml.path("structure").asText());
            row.put("check_worst_abs_error", worstCheck);
            row.putPOJO("checks", checks);
            row.put("search_live", live);
            row.put("search_twin", twin);
            row.put("search_error", twin / live - 1);
            row.put("calibration_real_time_s", virtualSeconds);
            row.put("compute_s", computeSeconds);
            System.out.printf(
                    Locale.ROOT,
                    "%-22s requests %5d lost %d late %d | cap %3d of %3d | checks worst %5.1f %% | search twin %6.1f"
                            + " live %6.1f (%+.1f %%) | %5.0f s real time, %4.0f s compute%n",
                    s.name(),
                    requests,
                    lost,
                    late,
                    cap,
                    s.cap(),
                    100 * worstCheck,
                    twin,
                    live,
                    100 * (twin / live - 1),
                    virtualSeconds,
                    computeSeconds);
        }
        ObjectNode root = JSON.createObjectNode();
        root.put("benchmark", "calibration");
        root.put("slo", "ttft:p95<1s (the CPU server: ttft:p95<30s)");
        root.set("servers", rows);
        Files.writeString(
                Path.of("target", "benchmark-calibration.json"),
                JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    }
}
