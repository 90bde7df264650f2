package dev.headroom.cli;

import dev.headroom.model.Slo;
import dev.headroom.reports.imports.ImportRun;
import dev.headroom.reports.imports.Imported;
import dev.headroom.reports.imports.Imports;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headroom import}: other tools' results as Headroom probe (and sweep) results, for plan, compare and report.
 */
@Command(
        name = "import",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description =
                "Turn AIPerf, GenAI-Perf, GuideLLM, vLLM bench, SGLang bench_serving or LLMPerf result files into "
                        + "Headroom results (summary.json per benchmark, sweep.json when there are several), "
                        + "recording the source "
                        + "and leaving out whatever the source did not measure.")
public final class ImportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(names = "--from", paramLabel = "TOOL", defaultValue = "auto")
    String from;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Result files of that tool.")
    List<Path> files;

    @Option(names = "--slo", paramLabel = "SLO")
    List<String> slos;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        List<Slo> sloList =
                slos == null ? List.of() : slos.stream().map(Slo::parse).toList();
        List<Imported> all = new ArrayList<>();
        for (Path f : files) all.addAll(Imports.read(from.trim().toLowerCase(Locale.ROOT), f));
        ImportRun run = new ImportRun(all, sloList, Version.get());
        Path dir = output.runDirectory("import");
        String json = run.write(dir);
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == OutputFormat.JSON ? json : run.table());
        out.flush();
        output.finish(dir, spec.commandLine().getErr());
        return ExitCodes.OK;
    }
}
