package dev.headroom.cli;

import dev.headroom.model.plan.Plan;
import dev.headroom.optimizer.plan.Planner;
import dev.headroom.reports.PlanCsv;
import dev.headroom.reports.PlanJson;
import dev.headroom.reports.PlanTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;

/** {@code headroom plan}: measured capacity → replicas, cost and $/Mtok over a traffic forecast. */
@Command(name = "plan", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Turn measured capacity into replicas, monthly cost and dollars per million tokens over a traffic "
                + "forecast, for each hardware option, with the range the capacity interval and the p90 forecast give.")
public final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PlanInputOptions inputs;
    @Mixin
    OutputOptions output;

    @Option(names = "--hourly", description = "Also write plan-hours.csv: every representative hour's rate and replicas.")
    boolean hourly;

    @Override
    public Integer call() {
        String format = output.format();
        PlanInputOptions.Inputs in = inputs.read();
        Plan plan = new Planner(in.policy()).plan(in.forecast(), in.options(), in.capacities());
        Path dir = output.runDirectory("plan");
        String json = PlanJson.write(plan, Version.get(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        ProbeRunner.write(dir.resolve("plan.json"), json);
        String csv = PlanCsv.months(plan);
        ProbeRunner.write(dir.resolve("plan.csv"), csv);
        if (hourly) ProbeRunner.write(dir.resolve("plan-hours.csv"), PlanCsv.hours(plan));
        PrintWriter out = spec.commandLine().getOut();
        out.print(switch (format) {
            case "json" -> json;
            case "csv" -> csv;
            default -> PlanTable.plan(plan);
        });
        out.flush();
        spec.commandLine().getErr().println("run directory: " + dir);
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }
}
