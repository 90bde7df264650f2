package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.SearchReport;
import dev.headroom.model.plan.Pareto;
import dev.headroom.model.plan.ParetoPoint;
import dev.headroom.reports.ResultFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * {@code headroom pareto}'s work: every load point of some probe, sweep and search runs (a search's probes from the
 * directories beside its search.json) placed on the Pareto picture and marked on or off its fronts.
 */
public final class ParetoRuns {
    private ParetoRuns() {}

    /**
     * @param gpus  GPUs in the replica the runs measured (tokens/s per GPU divides by it)
     * @param price dollars per GPU-hour, or NaN for no $/Mtok out
     */
    public static List<ParetoPoint> points(List<Path> runs, int gpus, double price) {
        if (runs.isEmpty()) throw new BadInputException("pareto needs at least one run directory");
        if (gpus < 1 || gpus > 1024) throw new BadInputException("{gpus} must be in 1..1024, got " + gpus);
        if (!Double.isNaN(price) && !(price > 0 && Double.isFinite(price))) {
            throw new BadInputException("{price} must be a positive number of dollars per GPU-hour, got " + price);
        }
        double hourly = Double.isNaN(price) ? Double.NaN : price * gpus;
        var kinds = EnumSet.of(ResultFiles.Kind.SEARCH, ResultFiles.Kind.SWEEP, ResultFiles.Kind.PROBE);
        List<ParetoPoint> out = new ArrayList<>();
        for (Path run : runs) {
            ResultFiles.Result r = ResultFiles.open(run, kinds);
            String source = run.toString();
            switch (r.kind()) {
                case PROBE -> out.add(point(source, ResultFiles.probe(r.file()).report(), gpus, hourly));
                case SWEEP -> {
                    for (ResultFiles.Probe p : ResultFiles.sweep(r.file()).points()) {
                        out.add(point(source, p.report(), gpus, hourly));
                    }
                }
                case SEARCH -> {
                    SearchReport s = ResultFiles.search(r.file());
                    int found = 0;
                    for (SearchReport.Probe p : s.probes()) {
                        if (p.dir() == null) continue;
                        Path summary = r.file().resolveSibling(p.dir()).resolve("summary.json");
                        if (!Files.isRegularFile(summary)) continue;
                        out.add(point(source, ResultFiles.probe(summary).report(), gpus, hourly));
                        found++;
                    }
                    if (found == 0) {
                        throw new BadInputException(run + ": a search whose probe directories are missing; the "
                                + "Pareto picture needs each probe's summary.json");
                    }
                }
                default -> throw new IllegalStateException(r.kind().name());
            }
        }
        return Pareto.mark(out);
    }

    private static ParetoPoint point(String source, ProbeReport r, int gpus, double hourly) {
        return ParetoPoint.of(source, r.run().load().label(), r.summary(), gpus, hourly);
    }
}
