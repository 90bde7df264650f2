package dev.headroom.model;

import java.util.List;

/**
 * Two runs of the same workload compared (run B against run A): per load point, metric and statistic, both values,
 * the relative change and its 95 % interval, and whether the change is beyond the runs' own noise.
 *
 * @param kind        probe, sweep or search
 * @param a           run A's directory, as given
 * @param b           run B's directory, as given
 * @param differences how the two runs' workloads differ (empty when they do not); a diff of differing workloads is
 *                    made only when asked for
 * @param resamples   bootstrap resamples per row (0 for a search, whose intervals are its own)
 * @param seed        the bootstrap's seed
 * @param noiseThreshold a relative change whose interval does not lie wholly beyond ±this is within noise, however
 *                    narrow its interval (0.01: 1 %): what no resampling of one run sees, the state a run keeps from
 *                    start to end, moves every statistic a little between runs of one server
 * @param rows        every comparison, in point then metric order
 */
public record RunDiff(
        String kind,
        String a,
        String b,
        List<String> differences,
        int resamples,
        long seed,
        double noiseThreshold,
        List<Row> rows) {
    public RunDiff {
        differences = List.copyOf(differences);
        rows = List.copyOf(rows);
    }

    /** Whether a larger value of a quantity is better (throughput) or worse (latency, errors). */
    public enum Better {
        HIGHER,
        LOWER
    }

    /** What the change is, judged against the noise. */
    public enum Verdict {
        /** Its interval holds 0: within the runs' noise. */
        SAME,
        /** Beyond noise, in the good direction. */
        BETTER,
        /** Beyond noise, in the bad direction. */
        WORSE;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One quantity compared.
     *
     * @param point   the load point ({@code concurrency=16}), or the search's objective
     * @param metric  the quantity's name as summary.json spells it ({@code ttft_ms}, {@code output_tokens_per_s})
     * @param stat    its statistic ({@code p99}), or {@code value} for a rate
     * @param unit    its unit ({@code ms}, {@code tok/s}, {@code %})
     * @param valueA  run A's value, as its own result reports it
     * @param valueB  run B's value
     * @param relative whether the change is relative (B ÷ A − 1); else it is B − A in the value's own unit (the
     *                error rate's, as a share)
     * @param change  (B − A) ÷ A, or B − A; NaN when A is 0 or either is missing
     * @param low     the 95 % interval's low end of the change
     * @param high    its high end
     */
    public record Row(
            String point,
            String metric,
            String stat,
            String unit,
            Better better,
            double valueA,
            double valueB,
            boolean relative,
            double change,
            double low,
            double high,
            Verdict verdict) {}

    /** How many rows have {@code verdict}. */
    public long count(Verdict verdict) {
        return rows.stream().filter(r -> r.verdict() == verdict).count();
    }

    /** The rows worse beyond noise by more than {@code fraction} (0.05: 5 %). */
    public List<Row> regressions(double fraction) {
        return rows.stream()
                .filter(r -> r.verdict() == Verdict.WORSE && Math.abs(r.change()) > fraction)
                .toList();
    }

    /**
     * The verdict of a change whose 95 % interval is {@code [low, high]}, for a quantity where {@code better}: beyond
     * noise when the whole interval lies beyond {@code threshold} on one side (0: when it excludes no change).
     */
    public static Verdict verdict(double low, double high, Better better, double threshold) {
        if (Double.isNaN(low) || Double.isNaN(high) || (low <= threshold && high >= -threshold)) return Verdict.SAME;
        boolean up = low > threshold;
        return up == (better == Better.HIGHER) ? Verdict.BETTER : Verdict.WORSE;
    }
}
