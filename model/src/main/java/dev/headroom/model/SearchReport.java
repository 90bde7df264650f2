package dev.headroom.model;

import java.util.List;
import java.util.Map;

/**
 * A finished (or interrupted) search as {@code search.json} publishes it.
 *
 * @param run      what was measured: target, workload, seed (its load is the first probe's)
 * @param value    the boundary estimate (NaN when the boundary is below the range)
 * @param curves   per SLO, the isotonic fit of its margin sampled on a grid of loads: {load, margin} pairs
 */
public record SearchReport(RunInfo run, String objective, List<Slo> slos, boolean simulated, double min, double max,
                           double tolerance, double value, double ciLow, double ciHigh, String bindingSlo,
                           String boundaryType, String stopReason, List<Probe> probes,
                           Map<String, List<double[]>> curves) {

    /** One probe of the search, in the order it ran. */
    public record Probe(int index, double load, Map<String, double[]> margins, boolean pass, long requests,
                        double seconds, String dir) {}
}
