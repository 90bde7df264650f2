package dev.headroom.reports.imports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads other tools' result files into {@link Imported} benchmarks; {@code --from auto} recognises the format. */
public final class Imports {
    public static final List<String> TOOLS = List.of("aiperf", "genai-perf", "guidellm", "vllm", "sglang", "llmperf");

    private Imports() {}

    /** Every benchmark in {@code file}, read as {@code from} (a tool name, or auto). */
    public static List<Imported> read(String from, Path file) {
        if (!from.equals("auto") && !TOOLS.contains(from)) {
            throw new BadInputException(
                    "bad {from} '" + from + "': valid values are auto, " + String.join(", ", TOOLS));
        }
        if (!Files.isRegularFile(file)) throw new BadInputException(file + ": no such file");
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String detected;
        List<Imported> out;
        if (name.endsWith(".csv")) {
            List<String> lines = lines(file);
            if (!GenaiPerfImport.recognises(lines)) throw unknown(file, from);
            detected = GenaiPerfImport.looksLikeAiperf(lines) ? "aiperf" : "genai-perf";
            out = GenaiPerfImport.read(file, lines, detected);
        } else if (name.endsWith(".jsonl")) {
            List<JsonNode> lines = Json.lines(file);
            if (lines.isEmpty()) throw unknown(file, from);
            if (SglangImport.recognises(lines.get(0))) {
                detected = "sglang";
                out = SglangImport.read(file, lines);
            } else if (PerRequestImport.isAiperfRecords(lines.get(0))) {
                detected = "aiperf";
                out = PerRequestImport.aiperf(file, lines);
            } else {
                throw unknown(file, from);
            }
        } else {
            JsonNode root = name.endsWith(".yaml") || name.endsWith(".yml") ? yaml(file) : Json.read(file);
            if (AiperfImport.recognises(root)) {
                detected = "aiperf";
                out = AiperfImport.read(file, root);
            } else if (GuidellmImport.recognises(root)) {
                detected = "guidellm";
                out = GuidellmImport.read(file, root);
            } else if (LlmperfImport.recognises(root)) {
                detected = "llmperf";
                out = LlmperfImport.read(file, root);
            } else if (PerRequestImport.isLlmperfResponses(root)) {
                detected = "llmperf";
                out = PerRequestImport.llmperf(file, root);
            } else if (PerRequestImport.isPerfAnalyzer(root)) {
                detected = "genai-perf";
                out = PerRequestImport.perfAnalyzer(file, root);
            } else if (VllmImport.recognises(root)) {
                detected = "vllm";
                out = VllmImport.read(file, root);
            } else {
                throw unknown(file, from);
            }
        }
        if (!from.equals("auto") && !from.equals(detected)) {
            throw new BadInputException(file + " is a " + detected + " result, not " + from + " (use {from} " + detected
                    + " or {from} auto)");
        }
        return out;
    }

    private static IllegalArgumentException unknown(Path file, String from) {
        return new BadInputException(
                file + " is not a result file Headroom can import" + (from.equals("auto") ? "" : " as " + from)
                        + "; it reads AIPerf profile_export_aiperf.json/.csv, GenAI-Perf "
                        + "profile_export_genai_perf.csv, GuideLLM "
                        + "benchmarks .json/.yaml, vLLM --save-result .json, SGLang bench_serving .jsonl and LLMPerf "
                        + "*_summary.json");
    }

    private static List<String> lines(Path file) {
        try {
            return new ArrayList<>(
                    Files.readString(file).replace("\r", "").lines().toList());
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static JsonNode yaml(Path file) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(
                    file + ": not YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
