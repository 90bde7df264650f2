package dev.headroom.cli;

import dev.headroom.model.Gates;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.Verification;
import dev.headroom.reports.PlanCsv;
import dev.headroom.reports.PlanJson;
import dev.headroom.reports.PlanTable;
import dev.headroom.reports.RunFiles;
import dev.headroom.runner.PlanSetup;
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
import picocli.CommandLine.Spec;

/** {@code headroom plan}: measured capacity → replicas, cost and $/Mtok over a traffic forecast. */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description =
                "Turn measured capacity into replicas, monthly cost and dollars per million tokens over a traffic "
                        + "forecast, for each hardware option, with the range the capacity interval and the p90 "
                        + "forecast give.")
public final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Mixin
    PlanInputOptions inputs;

    @Mixin
    OutputOptions output;

    @Option(names = "--hourly")
    boolean hourly;

    @Option(names = "--verify")
    boolean verify;

    @Option(names = "--verify-seconds", paramLabel = "S", defaultValue = "300")
    double verifySeconds;

    @Option(names = "--budget", paramLabel = "DOLLARS")
    String budget;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        Gates gates = budget == null
                ? Gates.NONE
                : new Gates(false, Double.NaN, Double.NaN, Double.NaN, Gates.dollars(budget, "--budget"));
        PlanSetup.checkVerifySeconds(verifySeconds);
        output.checkOut();
        PlanSetup.Inputs in = inputs.read(spec.commandLine().getErr());
        Plan plan = in.plan();
        // Verify before making the run directory: a catalog that cannot be simulated leaves nothing half-written.
        List<Verification> checks = verify ? in.verify(plan, verifySeconds, inputs.seed) : List.of();
        Path dir = output.runDirectory("plan");
        String json = PlanJson.write(
                plan,
                checks,
                Version.get(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        RunFiles.write(dir.resolve("plan.json"), json);
        String csv = PlanCsv.months(plan);
        RunFiles.write(dir.resolve("plan.csv"), csv);
        if (hourly) RunFiles.write(dir.resolve("plan-hours.csv"), PlanCsv.hours(plan));
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                switch (format) {
                    case JSON -> json;
                    case CSV -> csv;
                    case TABLE -> PlanTable.plan(plan) + PlanJson.verifyLines(checks);
                });
        out.flush();
        output.finish(dir, spec.commandLine().getErr());
        return ExitCodes.verdict(false, gates.plan(plan), spec.commandLine().getErr());
    }
}
