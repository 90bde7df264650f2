package dev.headroom.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.Slo;
import dev.headroom.reports.RunFiles;
import dev.headroom.reports.imports.Imported;
import dev.headroom.reports.imports.ImportedJson;
import dev.headroom.reports.imports.Imports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code headroom import}: other tools' results as Headroom probe (and sweep) results, for plan, compare and report. */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Turn AIPerf, GenAI-Perf, GuideLLM, vLLM bench, SGLang bench_serving or LLMPerf result files into "
                + "Headroom results (summary.json per benchmark, sweep.json when there are several), recording the source "
                + "and leaving out whatever the source did not measure.")
public final class ImportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(names = "--from", paramLabel = "TOOL", defaultValue = "auto",
            description = "aiperf, genai-perf, guidellm, vllm, sglang, llmperf or auto (default: ${DEFAULT-VALUE}).")
    String from;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Result files of that tool.")
    List<Path> files;

    @Option(names = "--slo", paramLabel = "SLO", description = "Check these SLOs on each imported benchmark's own statistics "
            + "(repeatable; a statistic the source did not measure is an error, never a guess).")
    List<String> slos;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        List<Slo> sloList = slos == null ? List.of() : slos.stream().map(Slo::parse).toList();
        List<Imported> all = new ArrayList<>();
        for (Path f : files) all.addAll(Imports.read(from.trim().toLowerCase(Locale.ROOT), f));
        // Build every result before writing anything: a bad --slo must not leave half an import behind.
        List<ObjectNode> trees = new ArrayList<>();
        for (Imported r : all) trees.add(ImportedJson.tree(r, sloList, Version.get()));
        Path dir = output.runDirectory("import");
        List<String> dirs = new ArrayList<>();
        String json;
        if (all.size() == 1) {
            json = ImportedJson.text(trees.getFirst());
            RunFiles.write(dir.resolve("summary.json"), json);
        } else {
            for (int i = 0; i < all.size(); i++) {
                String name = String.format(Locale.ROOT, "%02d-%s-%s", i + 1, all.get(i).tool(),
                        all.get(i).label().replaceAll("[^A-Za-z0-9.=]+", "-")).replaceAll("-+$", "");
                Path d = dir.resolve(name);
                try {
                    Files.createDirectories(d);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot create " + d + ": " + e.getMessage(), e);
                }
                RunFiles.write(d.resolve("summary.json"), ImportedJson.text(trees.get(i)));
                dirs.add(name);
            }
            json = ImportedJson.sweep(trees, dirs, Version.get());
            RunFiles.write(dir.resolve("sweep.json"), json);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormat.JSON) {
            out.print(json);
        } else {
            for (int i = 0; i < all.size(); i++) {
                Imported r = all.get(i);
                ObjectNode t = trees.get(i);
                out.printf(Locale.ROOT, "%-10s %-28s load %-22s completed %-6s ttft p50 %-8s e2e p50 %-8s req/s %-8s out tok/s %-8s%s%n",
                        r.tool(), r.label(), t.path("load").toString().replace("\"", ""), t.at("/counts/completed").asText("-"),
                        ms(t, "ttft_ms"), ms(t, "e2e_ms"), num(t, "requests_per_s"), num(t, "output_tokens_per_s"),
                        t.path("slo_pass").isBoolean() ? (t.path("slo_pass").asBoolean() ? "  SLO pass" : "  SLO FAIL") : "");
            }
            for (Imported r : all.subList(0, Math.min(1, all.size()))) r.notes().forEach(n -> out.println("note: " + n));
        }
        out.flush();
        output.finish(dir, spec.commandLine().getErr());
        return ExitCodes.OK;
    }

    private static String ms(ObjectNode t, String metric) {
        var n = t.at("/metrics/" + metric + "/p50");
        return n.isNumber() ? String.format(Locale.ROOT, "%.1f", n.asDouble()) : "-";
    }

    private static String num(ObjectNode t, String key) {
        var n = t.at("/metrics/" + key);
        return n.isNumber() ? String.format(Locale.ROOT, "%.2f", n.asDouble()) : "-";
    }
}
