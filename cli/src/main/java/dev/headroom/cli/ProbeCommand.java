package dev.headroom.cli;

import dev.headroom.model.Gates;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.Slo;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.ConsoleTable;
import dev.headroom.reports.SummaryCsv;
import dev.headroom.reports.SummaryJson;
import dev.headroom.runner.Endpoint;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code headroom probe}: measure one load point and write a run directory. */
@Command(
        name = "probe",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Measure an OpenAI-compatible streaming endpoint (default: the embedded simulator) at one load "
                + "point: TTFT, ITL, TPOT, E2E, throughput, goodput, errors.")
public final class ProbeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Mixin
    TargetOptions target;

    @Mixin
    LoadPointOptions point;

    @Mixin
    LoadOptions load;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    SessionOptions sessions;

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

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        List<Slo> slos = run.slos();
        WorkloadSpec work = workload.toSpec();
        MeasurementRequest plan =
                run.plan(load).probe(point.toLoad(load), point.sessions(), work, sessions.settings(), target.virtual());
        Slo.requireSessionsFor(slos, plan.sessions() != null);
        Gates gates = gate.gates(Double.NaN, Double.NaN);
        gates.requireSlo(slos);
        EngineConfig engine = target.embedded() ? sim.toConfig(run.seed) : null;
        target.validate(work); // everything checked before anything is written
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            endpoint.checkFits(work, plan); // the server's context, before the run directory
            Path dir = output.runDirectory("probe");
            String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
            ProbeReport report = endpoint.points(
                            "probe", startedAt, plan.load(), run.seed, work, workload.promptSalt(), dir, slos)
                    .withProgress(target.virtual() ? null : err)
                    .withChunkTimes(records.chunkTimes)
                    .measure(dir, plan, run.settings().spreadUsers());
            switch (format) {
                case JSON -> out.print(SummaryJson.write(report));
                case CSV -> out.print(SummaryCsv.write(List.of(SummaryCsv.row(report))));
                case TABLE -> out.print(ConsoleTable.probe(report));
            }
            out.flush();
            // The table already shows the warnings; with json/csv on stdout they go to stderr.
            if (format != OutputFormat.TABLE) {
                for (String w : report.warnings()) err.println("warning: " + w);
                for (String w : report.client().warnings()) err.println("warning: " + w);
            }
            output.finish(dir, err);
            return ExitCodes.verdict(report.degraded(), gates.probe(report), err);
        }
    }
}
