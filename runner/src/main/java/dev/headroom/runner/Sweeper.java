package dev.headroom.runner;

import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.Workload;
import dev.headroom.reports.RunFiles;
import dev.headroom.reports.SummaryCsv;
import dev.headroom.reports.SweepJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sweep}'s work: one load point per load, each in its directory under the run directory, sweep.json and
 * sweep.csv rewritten after every point (an interrupted sweep keeps the points it finished).
 */
public final class Sweeper {
    /** The finished points, in order, and their directories' names. */
    public record Result(List<ProbeReport> reports, List<String> dirs) {
        /** sweep.json's text. */
        public String json() {
            return SweepJson.write(reports, dirs);
        }

        /** sweep.csv's text. */
        public String csv() {
            return SummaryCsv.write(reports.stream().map(SummaryCsv::row).toList());
        }
    }

    private Sweeper() {}

    /**
     * Measures {@code plan}'s point of {@code workload} at each of {@code loads} through {@code points} into
     * {@code dir}, spreading a
     * closed loop's users over one request cycle when {@code spread} (see {@link LoadPoints#measureSpread}).
     */
    public static Result run(
            LoadPoints points, Path dir, List<LoadModel> loads, ProbePlan plan, Workload workload, boolean spread) {
        List<ProbeReport> reports = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < loads.size(); i++) {
            LoadModel l = loads.get(i);
            String name = l.pointName(i);
            MeasurementRequest point = plan.point(l, workload);
            reports.add(points.measure(dir.resolve(name), point, spread));
            dirs.add(name);
            Result sofar = new Result(List.copyOf(reports), List.copyOf(dirs));
            RunFiles.write(dir.resolve("sweep.json"), sofar.json());
            RunFiles.write(dir.resolve("sweep.csv"), sofar.csv());
        }
        return new Result(reports, dirs);
    }
}
