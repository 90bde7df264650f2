package dev.headroom.cli;

import dev.headroom.model.Gates;
import dev.headroom.model.RunDiff;
import dev.headroom.reports.DiffJson;
import dev.headroom.reports.RunFiles;
import dev.headroom.runner.Differ;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headroom diff A B}: two runs of one workload compared, each change judged against their noise. */
@Command(
        name = "diff",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Compare two probe, sweep or search run directories (B against A): per metric and statistic, "
                + "both values, the change and whether it is beyond the runs' own noise.")
public final class DiffCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Parameters(index = "0", paramLabel = "A", description = "The baseline run directory.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "The run directory compared with it.")
    Path b;

    @Option(names = "--allow-different-workloads")
    boolean allowDifferent;

    @Option(names = "--fail-on-regression", paramLabel = "PCT")
    String failOnRegression;

    @Option(names = "--resamples", paramLabel = "N", defaultValue = "" + Differ.RESAMPLES)
    int resamples;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", descriptionKey = "run.seed")
    long seed;

    @Option(names = "--noise-threshold", paramLabel = "PCT", defaultValue = "1%")
    String noiseThreshold;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        double threshold =
                failOnRegression == null ? Double.NaN : Gates.share(failOnRegression, "--fail-on-regression");
        output.checkOut();
        double noise = Gates.share(noiseThreshold, "--noise-threshold");
        RunDiff d = new Differ(resamples, seed, noise).diff(a, b, allowDifferent);
        Path dir = output.runDirectory("diff");
        String json = DiffJson.write(
                d, Version.get(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        RunFiles.write(dir.resolve("diff.json"), json);
        String csv = DiffJson.csv(d);
        RunFiles.write(dir.resolve("diff.csv"), csv);
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                switch (format) {
                    case JSON -> json;
                    case CSV -> csv;
                    case TABLE -> DiffJson.table(d);
                });
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        output.finish(dir, err);
        List<String> failed = Double.isNaN(threshold)
                ? List.of()
                : d.regressions(threshold).stream()
                        .map(r -> String.format(
                                Locale.ROOT,
                                "%s %s %s regressed %s (beyond noise and the %s allowed)",
                                r.point(),
                                r.metric(),
                                r.stat(),
                                DiffJson.change(r.change(), r),
                                failOnRegression))
                        .toList();
        return ExitCodes.verdict(false, failed, err);
    }
}
