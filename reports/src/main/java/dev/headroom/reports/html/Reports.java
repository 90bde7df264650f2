package dev.headroom.reports.html;

import dev.headroom.reports.PlanJson;
import dev.headroom.reports.ResultFiles;
import dev.headroom.reports.chart.Chart;
import java.nio.file.Path;
import java.util.List;

/** Builds the page for whatever kind of run directory it is given. */
public final class Reports {
    private Reports() {}

    /** The page's HTML and the charts in it. */
    public record Built(String html, List<Chart> charts) {}

    public static Built build(Path dir) {
        RunDirectory run = RunDirectory.open(dir);
        Page page = switch (run.kind()) {
            case PROBE -> ProbeReportPage.build(dir, ResultFiles.probe(run.file()));
            case SWEEP -> SweepReportPage.build(ResultFiles.sweep(run.file()));
            case SEARCH -> SearchReportPage.build(dir, ResultFiles.search(run.file()));
            case PLAN -> PlanReportPage.build(PlanJson.read(run.file()), false);
            case COMPARE -> PlanReportPage.build(PlanJson.read(run.file()), true);
            case FIDELITY -> FidelityReportPage.build(run.file());
            case DIFF -> DiffReportPage.build(run.file());
            case CONFIGURE -> ParetoReportPage.configure(run.file());
            case PARETO -> ParetoReportPage.pareto(run.file());
        };
        return new Built(page.html(), page.allCharts());
    }
}
