package dev.headroom.cli;

import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.Plan;
import dev.headroom.reports.PlanCsv;
import dev.headroom.reports.PlanJson;
import dev.headroom.reports.PlanTable;
import dev.headroom.reports.RunFiles;
import dev.headroom.runner.PlanSetup;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code headroom compare}: hardware options side by side, ranked by cost, and the cheapest mix. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Compare hardware options on the same forecast: capacity per replica, replicas at peak, monthly "
                + "cost and $/Mtok, ranked by cost; with several classes, also the cheapest mix of options.")
public final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Mixin
    PlanInputOptions inputs;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        output.checkOut();
        PlanSetup.Inputs in = inputs.read(spec.commandLine().getErr());
        Plan plan = in.plan();
        Comparison c = in.compare(plan);
        Path dir = output.runDirectory("compare");
        String json = PlanJson.write(
                c, Version.get(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        RunFiles.write(dir.resolve("compare.json"), json);
        String csv = PlanCsv.months(plan);
        RunFiles.write(dir.resolve("plan.csv"), csv);
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                switch (format) {
                    case JSON -> json;
                    case CSV -> csv;
                    case TABLE -> PlanTable.compare(c);
                });
        out.flush();
        output.finish(dir, spec.commandLine().getErr());
        return ExitCodes.OK;
    }
}
