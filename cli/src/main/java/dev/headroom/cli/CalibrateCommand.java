package dev.headroom.cli;

import dev.headroom.reports.CheckTable;
import dev.headroom.reports.FidelityJson;
import dev.headroom.runner.Calibrator;
import dev.headroom.runner.Endpoint;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom calibrate}: a designed set of probes, then a twin of the server fitted to them. */
@Command(
        name = "calibrate",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Measure a server (default: the embedded simulator) with a short designed set of probes and fit "
                + "the simulator's engine to them: calibration.yaml, a twin that --profile gives to probe, sweep and "
                + "search --virtual, and to plan for classes never measured.")
public final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Mixin
    SimulatorOptions sim;

    @Mixin
    OutputOptions output;

    @Option(names = "--twin-hardware", paramLabel = "NAME|FILE", defaultValue = "h100-sxm")
    String twinHardware;

    @Option(names = "--twin-model", paramLabel = "NAME|FILE", defaultValue = "llama-3.1-8b")
    String twinModel;

    @Option(names = "--twin-tp", paramLabel = "N", defaultValue = "1")
    int twinTp;

    @Option(names = "--twin-weight-dtype", paramLabel = "auto|bf16|fp8|...", defaultValue = "auto")
    String twinWeights;

    @Option(names = "--twin-kv-cache-dtype", paramLabel = "auto|bf16|fp8", defaultValue = "auto")
    String twinKv;

    @Option(names = "--scale", paramLabel = "F", defaultValue = "1")
    double scale;

    @Option(names = "--folds", paramLabel = "K", defaultValue = "3")
    int folds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42")
    long seed;

    @Option(names = "--check", paramLabel = "N", defaultValue = "2")
    int checks;

    @Option(names = "--check-only", paramLabel = "FILE")
    Path checkOnly;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        Calibrator.Settings settings = new Calibrator.Settings(seed, scale, folds, checks, target.firstTokenTimeout());
        // A --check-only file is read by the check itself, before any load.
        EngineConfig assumed =
                checkOnly != null ? null : Calibrator.twinBase(twinHardware, twinModel, twinTp, twinWeights, twinKv);
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        target.validate(Calibrator.WORKLOAD);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            Calibrator calibrator = new Calibrator(
                    endpoint,
                    settings,
                    line -> {
                        err.println(line);
                        err.flush();
                    },
                    target.virtual() ? null : err);
            Path[] dir = new Path[1];
            Supplier<Path> runDirectory = () -> dir[0] = output.runDirectory("calibrate");
            if (checkOnly != null) {
                Calibrator.Check c = calibrator.check(checkOnly, runDirectory);
                if (format == OutputFormat.TABLE) out.print(CheckTable.table(c.checked()));
                else out.print(c.yaml());
                out.flush();
                err.println("check: " + c.file());
            } else {
                Calibrator.Result r = calibrator.calibrate(assumed, runDirectory);
                switch (format) {
                    case JSON -> out.print(r.fidelityJson());
                    case CSV -> out.print(FidelityJson.csv(r.fit()));
                    case TABLE -> {
                        out.print(FidelityJson.table(r.sources(), true, "source", 0, r.fit()));
                        out.println();
                        out.println("twin: " + r.twin().describe() + "; " + r.structure());
                        for (String n : r.notes()) out.println("note: " + n);
                        out.print(CheckTable.table(r.checked()));
                    }
                }
                out.flush();
                for (String w : r.warnings()) err.println("warning: " + w);
                err.println("calibration: " + r.file());
            }
            output.finish(dir[0], err);
        }
        return ExitCodes.OK;
    }
}
