package dev.headroom.cli;

import dev.headroom.model.ProbeReport;
import dev.headroom.reports.ConsoleTable;
import dev.headroom.reports.SummaryCsv;
import dev.headroom.reports.SummaryJson;
import dev.headroom.reports.SummaryRebuild;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headroom rebuild DIR}: a load point's summary.json made again from its requests.jsonl. */
@Command(
        name = "rebuild",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Recompute a load point's summary.json and histograms.hlog from its requests.jsonl and "
                + "config.yaml — after a run was killed, ran out of memory or crashed — and write them into DIR "
                + "(a sweep's or search's directory: each of its points).")
public final class RebuildCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Parameters(paramLabel = "DIR", description = "A probe's run directory, or a sweep's or search's.")
    Path dir;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() {
        OutputFormat f = format.format();
        List<Path> points = SummaryRebuild.points(dir);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        for (Path p : points) {
            SummaryRebuild.Rebuilt r = SummaryRebuild.rebuild(p);
            ProbeReport report = r.report();
            if (points.size() == 1) {
                switch (f) {
                    case JSON -> out.print(SummaryJson.write(report));
                    case CSV -> out.print(SummaryCsv.write(List.of(SummaryCsv.row(report))));
                    case TABLE -> out.print(ConsoleTable.probe(report));
                }
            } else {
                out.println(p.getFileName() + ": " + report.summary().counts().completed() + " completed, "
                        + report.summary().counts().failed() + " failed");
            }
            out.flush();
            err.println(p + ": " + r.requests() + " requests; itl "
                    + r.itl().said()
                    + (r.described() ? "" : "; how lengths were hit, connections, client and server metrics: unknown"));
            err.println("summary: " + p.resolve("summary.json"));
        }
        err.flush();
        return ExitCodes.OK;
    }
}
