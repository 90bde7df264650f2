package dev.headroom.cli;

import dev.headroom.reports.HtmlReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headroom report DIR}: the offline HTML report of a stored run directory, made again without re-running it. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description =
                "Write the self-contained HTML report (inline SVG charts, no script, nothing from the network) of a "
                        + "probe, sweep, search, plan or compare run directory, from its stored results only.")
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Parameters(paramLabel = "DIR", description = "The run directory.")
    Path dir;

    @Option(names = "--out", paramLabel = "FILE.html")
    Path out;

    @Option(names = "--png")
    boolean png;

    @Override
    public Integer call() {
        HtmlReport.Written w = HtmlReport.write(dir, out, png);
        PrintWriter err = spec.commandLine().getErr();
        spec.commandLine().getOut().println(w.charts().size() + " charts");
        for (Path p : w.pngs()) err.println("png: " + p);
        err.println("report: " + w.html());
        err.flush();
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
