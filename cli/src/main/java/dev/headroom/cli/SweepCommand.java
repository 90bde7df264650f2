package dev.headroom.cli;

import dev.headroom.model.Gates;
import dev.headroom.model.LoadModel;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.Slo;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.ConsoleTable;
import dev.headroom.runner.Endpoint;
import dev.headroom.runner.LoadPoints;
import dev.headroom.runner.ProbePlan;
import dev.headroom.runner.Sweeper;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom sweep}: one probe per load point into one directory, with the knee marked. */
@Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Run one probe per load point (--concurrency 1,2,4,8 or --rate 1,2,4) and show where "
                + "throughput stops paying for latency (the knee).")
public final class SweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Points points;

    static final class Points {
        @Option(names = "--concurrency", paramLabel = "N,N,...", split = ",")
        List<Integer> concurrency;

        @Option(names = "--rate", paramLabel = "R,R,...", split = ",")
        List<Double> rate;
    }

    @Mixin
    TargetOptions target;

    @Mixin
    LoadOptions load;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    RunOptions run;

    @Mixin
    OutputOptions output;

    @Mixin
    RecordOptions records;

    @Mixin
    SimulatorOptions sim;

    @Mixin
    GateOptions gate;

    @Option(names = "--fail-on-slo-at", paramLabel = "LOAD")
    Double failOnSloAt;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        List<Slo> slos = run.slos();
        Slo.requireSessionsFor(slos, false); // a sweep runs independent requests
        WorkloadSpec work = workload.toSpec();
        List<LoadModel> loads = new ArrayList<>();
        if (points.concurrency != null) points.concurrency.forEach(c -> loads.add(new LoadModel.Closed(c)));
        else points.rate.forEach(r -> loads.add(load.open(r)));
        ProbePlan plan = run.plan(load);
        loads.forEach(l -> plan.point(l, work.workload())); // validate every point before running any
        Gates gates = gate.gates(failOnSloAt == null ? Double.NaN : failOnSloAt, Double.NaN);
        gates.requireSlo(slos);
        gates.requirePointIn(loads);
        EngineConfig engine = target.embedded() ? sim.toConfig(run.seed) : null;
        target.validate(work);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path dir;
        Sweeper.Result done;
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            endpoint.checkFits(work, plan.point(loads.getFirst(), work.workload()));
            dir = output.runDirectory("sweep");
            String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
            LoadPoints points = endpoint.points(
                            "sweep", startedAt, loads.getFirst(), run.seed, work, workload.promptSalt(), dir, slos)
                    .withProgress(target.virtual() ? null : err)
                    .withChunkTimes(records.chunkTimes);
            done = Sweeper.run(
                    points, dir, loads, plan, work.workload(), run.settings().spreadUsers());
        }
        switch (format) {
            case JSON -> out.print(done.json());
            case CSV -> out.print(done.csv());
            case TABLE -> out.print(ConsoleTable.sweep(done.reports()));
        }
        out.flush();
        output.finish(dir, err);
        return ExitCodes.verdict(
                done.reports().stream().anyMatch(ProbeReport::degraded), gates.sweep(done.reports()), err);
    }
}
