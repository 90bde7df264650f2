package dev.headroom.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code headroom} command: lists the subcommands. */
@Command(
        name = "headroom",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        resourceBundle = "dev.headroom.cli.Help",
        description = "Measures LLM serving endpoints and turns the measurements into fleet plans.",
        subcommands = {
            ProbeCommand.class,
            SweepCommand.class,
            SearchCommand.class,
            PlanCommand.class,
            CompareCommand.class,
            DiffCommand.class,
            ParetoCommand.class,
            ConfigureCommand.class,
            ImportCommand.class,
            ReportCommand.class,
            RebuildCommand.class,
            FidelityCommand.class,
            CalibrateCommand.class,
            InitCommand.class,
            SimCommand.class,
            WorkerCommand.class,
            KubeCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {
            "",
            "Exit codes: 0 ok, 1 internal error, 2 bad input or usage, 3 I/O error, 5 the target refused every "
                    + "request, 6 out of memory, 7 a distributed run degraded, 130 interrupted."
        })
public final class HeadroomCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
