package dev.headroom.cli;

import dev.headroom.reports.FidelityJson;
import dev.headroom.runner.FidelityScore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom fidelity}: the simulator scored against published serving results, and its terms fitted to them. */
@Command(
        name = "fidelity",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Run every published load point of a sources file through the simulator on its virtual clock "
                + "and report the median absolute error of TTFT, TPOT/ITL, throughput and E2E (central and tail "
                + "statistics); with --fit, fit the step terms and report the error cross-validated by source, "
                + "engine release or GPU.")
public final class FidelityCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--sources", paramLabel = "FILE", defaultValue = "bench/fidelity/published.yaml")
    Path sources;

    @Option(names = "--fit")
    boolean fit;

    @Option(names = "--folds", paramLabel = "K", defaultValue = "2")
    int folds;

    @Option(names = "--hold-out", paramLabel = "source|engine|gpu", defaultValue = "source")
    String holdOut;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3")
    int rounds;

    @Option(names = "--prior-weight", paramLabel = "W", defaultValue = "0.2")
    double priorWeight;

    @Option(names = "--set", paramLabel = "TERM=VALUE")
    List<String> set = List.of();

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat f = output.format();
        var settings = new FidelityScore.Settings(
                sources, fit, folds, rounds, priorWeight, set, FidelityScore.HoldOut.parse(holdOut));
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path[] dir = new Path[1];
        FidelityScore.Result r = FidelityScore.run(settings, () -> dir[0] = output.runDirectory("fidelity"), line -> {
            err.println(line);
            err.flush();
        });
        switch (f) {
            case JSON -> o.print(r.json());
            case CSV -> o.print(r.csv());
            case TABLE -> o.print(FidelityJson.table(r.sources(), fit, r.heldOutBy(), r.excluded(), r.report()));
        }
        o.flush();
        output.finish(dir[0], err);
        return ExitCodes.OK;
    }
}
