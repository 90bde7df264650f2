package dev.headroom.sim.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ProfilesTest {
    private static final Path CONFIGS = Path.of("..", "configs");

    private static List<Path> yamlFiles(String dir) throws IOException {
        try (Stream<Path> s = Files.list(CONFIGS.resolve(dir))) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @Test
    void everyHardwareFileInConfigsParsesAndValidates() throws IOException {
        List<Path> files = yamlFiles("hardware");
        assertTrue(files.size() >= 7, files.toString());
        for (Path f : files) {
            HardwareProfile h = Profiles.parse(f, HardwareProfile.class).validate();
            assertEquals(f.getFileName().toString().replace(".yaml", ""), h.name(), "name matches file name");
            assertFalse(h.price().source().isBlank());
            assertFalse(h.price().asOf().isBlank());
        }
    }

    @Test
    void everyModelFileInConfigsParsesAndValidates() throws IOException {
        List<Path> files = yamlFiles("models");
        assertTrue(files.size() >= 4, files.toString());
        for (Path f : files) {
            ModelProfile m = Profiles.parse(f, ModelProfile.class).validate();
            assertEquals(f.getFileName().toString().replace(".yaml", ""), m.name(), "name matches file name");
        }
    }

    @Test
    void everyYamlUnderConfigsIsOfAKindThisTestParses() throws IOException {
        // A new kind of config (SLOs, forecasts, ...) must come with a parse test of its own.
        try (Stream<Path> all = Files.walk(CONFIGS)) {
            for (Path f : all.filter(
                            p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .toList()) {
                String kind = CONFIGS.relativize(f).getName(0).toString();
                switch (kind) {
                    case "hardware" -> Profiles.parse(f, HardwareProfile.class).validate();
                    case "models" -> Profiles.parse(f, ModelProfile.class).validate();
                    case "engines" -> Profiles.parse(f, EngineProfile.class).validate();
                    // Plan inputs are parsed by the cli module's PlanCommandTest (everyPlanConfigInConfigsLoads).
                    case "plan" ->
                        assertTrue(
                                List.of("forecast.yaml", "catalog.yaml", "policy.yaml", "capacities.yaml")
                                        .contains(f.getFileName().toString()),
                                "no parse test covers " + f);
                    // Presets are loaded for probe, sweep and search by the cli module's ConfigFileTest.
                    case "presets" ->
                        assertTrue(
                                List.of("chat.yaml", "rag.yaml", "batch-summarization.yaml")
                                        .contains(f.getFileName().toString()),
                                "no parse test covers " + f);
                    // The stock model's error, read by plan --capacity-model OPTION=stock: every kind, as a fraction.
                    case "stock-error.yaml" -> {
                        assertTrue(
                                Profiles.hardwareNames()
                                        .containsAll(dev.headroom.sim.SimulatedReplicas.stockErrorHardware()),
                                "by_hardware names profiles: " + f);
                        for (String hw : Profiles.hardwareNames()) {
                            var error = dev.headroom.sim.SimulatedReplicas.stockError(hw);
                            assertEquals(
                                    java.util.EnumSet.allOf(dev.headroom.model.fit.ObservedMetric.Kind.class),
                                    error.keySet(),
                                    hw + " in " + f);
                            error.values().forEach(e -> assertTrue(e > 0 && e < 1, hw + " in " + f + ": " + error));
                        }
                        assertEquals(
                                0.447,
                                dev.headroom.sim.SimulatedReplicas.stockError("l40s")
                                        .get(dev.headroom.model.fit.ObservedMetric.Kind.THROUGHPUT),
                                1e-9,
                                "the hardware's own figure");
                        assertEquals(
                                0.465,
                                dev.headroom.sim.SimulatedReplicas.stockError("l40s")
                                        .get(dev.headroom.model.fit.ObservedMetric.Kind.TTFT),
                                1e-9,
                                "a kind not scored on it takes the figure over all");
                    }
                    default -> throw new AssertionError("no parse test covers " + f);
                }
            }
        }
    }

    @Test
    void theIssueNamesAreAllBundled() {
        assertTrue(
                Profiles.hardwareNames()
                        .containsAll(List.of("h100-sxm", "h200", "a100-80gb", "l40s", "l4", "b200", "mi300x")),
                Profiles.hardwareNames().toString());
        assertTrue(
                Profiles.modelNames()
                        .containsAll(List.of("llama-3.1-8b", "llama-3.1-70b", "qwen2.5-32b", "mixtral-8x7b")),
                Profiles.modelNames().toString());
    }

    @Test
    void derivedFiguresMatchHandComputation() {
        ModelProfile llama = Profiles.model("llama-3.1-8b");
        // 2 (K,V) x 32 layers x 8 KV heads x 128 dims x 2 bytes = 131,072 bytes per token.
        assertEquals(131_072, llama.kvBytesPerToken(), 1e-9);
        assertEquals(16.06e9, llama.weightBytes(), 1e6);
        ModelProfile mixtral = Profiles.model("mixtral-8x7b");
        assertTrue(mixtral.isMoe());
        assertEquals(12.9e9, mixtral.active(), 1);
    }

    @Test
    void unknownNameListsTheValidOnes() {
        var e = assertThrows(IllegalArgumentException.class, () -> Profiles.hardware("h100"));
        assertTrue(e.getMessage().contains("'h100'") && e.getMessage().contains("h100-sxm"), e.getMessage());
        var m = assertThrows(IllegalArgumentException.class, () -> Profiles.model("gpt-5"));
        assertTrue(m.getMessage().contains("llama-3.1-8b"), m.getMessage());
    }

    @Test
    void aFileWithABadOrUnknownKeyIsRefusedByName(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(
                bad, Files.readString(CONFIGS.resolve("hardware/l4.yaml")).replace("memory_gb: 24", "memory_gb: -1"));
        var e = assertThrows(IllegalArgumentException.class, () -> Profiles.hardware(bad.toString()));
        assertTrue(e.getMessage().contains("memory_gb") && e.getMessage().contains("-1"), e.getMessage());
        Path typo = dir.resolve("typo.yaml");
        Files.writeString(
                typo,
                Files.readString(CONFIGS.resolve("models/llama-3.1-8b.yaml")).replace("layers:", "layerz:"));
        var t = assertThrows(IllegalArgumentException.class, () -> Profiles.model(typo.toString()));
        assertTrue(t.getMessage().contains("layerz"), t.getMessage());
    }
}
