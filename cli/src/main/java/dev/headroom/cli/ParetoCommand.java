package dev.headroom.cli;

import dev.headroom.model.plan.ParetoPoint;
import dev.headroom.reports.ParetoJson;
import dev.headroom.reports.RunFiles;
import dev.headroom.runner.ParetoRuns;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headroom pareto DIR...}: the load points of sweeps, searches and probes on one Pareto picture. */
@Command(
        name = "pareto",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Place every load point of probe, sweep and search runs on the Pareto picture: output tokens/s "
                + "per user against output tokens/s per GPU (and $/Mtok with --price), the SLO's feasible points and "
                + "the front marked.")
public final class ParetoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "Probe, sweep or search run directories.")
    List<Path> runs;

    @Option(names = "--gpus", paramLabel = "N", defaultValue = "1")
    int gpus;

    @Option(names = "--price", paramLabel = "$/GPU-HOUR")
    Double price;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        output.checkOut();
        double p = price == null ? Double.NaN : price;
        List<ParetoPoint> points = ParetoRuns.points(runs, gpus, p);
        Path dir = output.runDirectory("pareto");
        String json = ParetoJson.write(
                runs.stream().map(Path::toString).toList(),
                gpus,
                p,
                points,
                Version.get(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        RunFiles.write(dir.resolve("pareto.json"), json);
        String csv = ParetoJson.csv(points);
        RunFiles.write(dir.resolve("pareto.csv"), csv);
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                switch (format) {
                    case JSON -> json;
                    case CSV -> csv;
                    case TABLE -> ParetoJson.table(points);
                });
        out.flush();
        output.finish(dir, spec.commandLine().getErr());
        return ExitCodes.OK;
    }
}
