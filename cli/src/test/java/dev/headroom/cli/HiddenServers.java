package dev.headroom.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The hidden servers calibrate is judged against: an H100 whose every step term differs from the shipped profile's. */
public final class HiddenServers {
    /** The terms the twin never sees (it starts from the shipped h100-sxm profile's). */
    static final String HIDDEN_TERMS = """
            memory_efficiency: 0.68
            compute_efficiency: 0.47
            step_overhead_ms: 2.6
            allreduce_latency_us: 12
            gemm_half_tokens: 180
            seq_overhead_us: 24
            layer_overhead_us: 6
            request_overhead_ms: 31
            """;

    /** A desktop CPU's spec-sheet figures, as docs/calibrate.md says to describe one (its terms given apart). */
    private static final String DESKTOP_CPU = """
            name: desktop-cpu
            display_name: 8-core desktop CPU, dual-channel DDR5-4800
            memory_gb: 64
            memory_bandwidth_gb_s: 76.8
            bf16_tflops: 1.5
            fp8_tflops: 1.5
            interconnect_gb_s: 1
            price:
              on_demand_per_gpu_hour: 0.01
              source: owned
              as_of: "2026-12"
            """;

    private HiddenServers() {}

    /** The desktop CPU with step terms {@code terms} (YAML lines), written into {@code dir} as {@code file}. */
    public static Path desktopCpu(Path dir, String file, String terms) throws IOException {
        Path f = dir.resolve(file);
        Files.writeString(f, DESKTOP_CPU + terms);
        return f;
    }

    /** The shipped H100 profile with the hidden terms, written into {@code dir}. */
    public static Path hiddenHardware(Path dir) throws IOException {
        String stock = Files.readString(Path.of("..", "configs", "hardware", "h100-sxm.yaml"));
        StringBuilder b = new StringBuilder();
        for (String line : stock.split("\n")) {
            String key = line.replaceAll(":.*", "").trim();
            if (!HIDDEN_TERMS.contains(key + ":") || line.startsWith(" ") || line.startsWith("#")) {
                b.append(line).append('\n');
            }
        }
        Path f = dir.resolve("hidden-h100.yaml");
        Files.writeString(f, b + HIDDEN_TERMS);
        return f;
    }
}
