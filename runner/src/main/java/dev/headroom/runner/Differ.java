package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Distribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunDiff;
import dev.headroom.model.RunDiff.Better;
import dev.headroom.model.RunDiff.Row;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchReport;
import dev.headroom.model.SloMetric;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.ResultFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * {@code headroom diff}'s work: two run directories of one kind (probe, sweep or search) compared, each change judged
 * against the runs' own noise. A probe's (and each sweep point's) intervals come from a {@link Bootstrap} of each
 * run's requests.jsonl; a search's from its answers' own intervals (beyond noise when they do not overlap).
 */
public final class Differ {
    /** Bootstrap resamples per run. */
    public static final int RESAMPLES = 2000;

    private static final double[] QUANTILES = {0.5, 0.9, 0.99};
    private static final String[] STATS = {"p50", "p90", "p99"};

    private final int resamples;
    private final long seed;
    private final double noiseThreshold;

    /**
     * @param noiseThreshold relative changes whose interval does not lie wholly beyond ±this are within noise (0..0.5;
     *                       the CLI's default 0.01 is criterion.rs's)
     */
    public Differ(int resamples, long seed, double noiseThreshold) {
        if (resamples < 1000 || resamples > 100_000) {
            throw new BadInputException("{resamples} must be from 1000 to 100000, got " + resamples);
        }
        if (!(noiseThreshold >= 0 && noiseThreshold <= 0.5)) {
            throw new BadInputException("{noise-threshold} must be from 0% to 50%, got " + noiseThreshold * 100 + "%");
        }
        this.resamples = resamples;
        this.seed = seed;
        this.noiseThreshold = noiseThreshold;
    }

    /** B against A; runs whose workloads differ are refused, naming the difference, unless {@code allowDifferent}. */
    public RunDiff diff(Path a, Path b, boolean allowDifferent) {
        var kinds = EnumSet.of(ResultFiles.Kind.SEARCH, ResultFiles.Kind.SWEEP, ResultFiles.Kind.PROBE);
        ResultFiles.Result ra = ResultFiles.open(a, kinds);
        ResultFiles.Result rb = ResultFiles.open(b, kinds);
        if (ra.kind() != rb.kind()) {
            throw new BadInputException("diff compares runs of one kind: " + a + " is a " + name(ra.kind()) + ", " + b
                    + " a " + name(rb.kind()));
        }
        List<String> differences = new ArrayList<>();
        List<Pending> rows = new ArrayList<>();
        switch (ra.kind()) {
            case PROBE -> {
                ResultFiles.Probe pa = ResultFiles.probe(ra.file());
                ResultFiles.Probe pb = ResultFiles.probe(rb.file());
                differences.addAll(
                        workloadDifferences(pa.report().run(), pb.report().run()));
                refuse(differences, allowDifferent);
                rows.addAll(probeRows(
                        pa.report().run().load().label(),
                        pa.report(),
                        ra.file().getParent(),
                        pb.report(),
                        rb.file().getParent()));
            }
            case SWEEP -> {
                ResultFiles.Sweep sa = ResultFiles.sweep(ra.file());
                ResultFiles.Sweep sb = ResultFiles.sweep(rb.file());
                List<String> la = sa.points().stream()
                        .map(p -> p.report().run().load().label())
                        .toList();
                List<String> lb = sb.points().stream()
                        .map(p -> p.report().run().load().label())
                        .toList();
                if (!la.equals(lb)) differences.add("load points: " + la + " vs " + lb);
                if (!sa.points().isEmpty() && !sb.points().isEmpty()) {
                    differences.addAll(workloadDifferences(
                            sa.points().getFirst().report().run(),
                            sb.points().getFirst().report().run()));
                }
                refuse(differences, allowDifferent);
                for (int i = 0; i < sa.points().size(); i++) {
                    String label = la.get(i);
                    int j = lb.indexOf(label);
                    if (j < 0) continue;
                    rows.addAll(probeRows(
                            label,
                            sa.points().get(i).report(),
                            pointDir(ra.file(), sa.dirs().get(i)),
                            sb.points().get(j).report(),
                            pointDir(rb.file(), sb.dirs().get(j))));
                }
            }
            case SEARCH -> {
                SearchReport sa = ResultFiles.search(ra.file());
                SearchReport sb = ResultFiles.search(rb.file());
                if (!sa.objective().equals(sb.objective())) {
                    differences.add("objective: " + sa.objective() + " vs " + sb.objective());
                }
                if (!sa.slos().equals(sb.slos())) differences.add("SLO: " + sa.slos() + " vs " + sb.slos());
                differences.addAll(workloadDifferences(sa.run(), sb.run()));
                refuse(differences, allowDifferent);
                rows.add(new Pending(searchRow(sa, sb), null));
            }
            default -> throw new IllegalStateException("not a diffable kind: " + ra.kind());
        }
        return new RunDiff(
                name(ra.kind()),
                a.toString(),
                b.toString(),
                differences,
                ra.kind() == ResultFiles.Kind.SEARCH ? 0 : resamples,
                seed,
                noiseThreshold,
                simultaneous(rows));
    }

    private static void refuse(List<String> differences, boolean allowDifferent) {
        if (!differences.isEmpty() && !allowDifferent) {
            throw new BadInputException("the runs' workloads differ (" + String.join("; ", differences)
                    + "): compare like with like, or give {allow-different-workloads}");
        }
    }

    /** What was sent differs: the load, the lengths, how prompts were built, the API, sessions. */
    static List<String> workloadDifferences(RunInfo a, RunInfo b) {
        List<String> d = new ArrayList<>();
        if (!Objects.equals(a.load(), b.load()))
            d.add("load: " + a.load().label() + " vs " + b.load().label());
        if (!Objects.equals(a.workload(), b.workload())) d.add("workload: " + a.workload() + " vs " + b.workload());
        if (!Objects.equals(a.api(), b.api())) d.add("api: " + a.api() + " vs " + b.api());
        if (!Objects.equals(a.sessions(), b.sessions())) d.add("sessions differ");
        return d;
    }

    private static Path pointDir(Path sweepJson, String dir) {
        return dir == null ? null : sweepJson.getParent().resolve(dir);
    }

    private static String name(ResultFiles.Kind k) {
        return k.name().toLowerCase(Locale.ROOT);
    }

    /** A row whose interval is still to be taken from its resampled changes (null: it has its own). */
    private record Pending(Row row, double[] changes) {}

    /**
     * Every bootstrapped row's interval at 1 − 0.05 ÷ m, m the bootstrapped rows of its load point (Bonferroni), so a
     * point's intervals hold together with 95 % confidence: a diff of two runs of one server calls none of a point's
     * comparisons beyond noise 19 times in 20.
     */
    private List<Row> simultaneous(List<Pending> pending) {
        Map<String, Long> perPoint = new HashMap<>();
        for (Pending p : pending)
            if (p.changes() != null) perPoint.merge(p.row().point(), 1L, Long::sum);
        List<Row> out = new ArrayList<>();
        for (Pending p : pending) {
            Row r = p.row();
            if (p.changes() == null) {
                out.add(r);
                continue;
            }
            double[] ci = Bootstrap.interval(p.changes(), 0.05 / perPoint.get(r.point()));
            out.add(new Row(
                    r.point(),
                    r.metric(),
                    r.stat(),
                    r.unit(),
                    r.better(),
                    r.valueA(),
                    r.valueB(),
                    r.relative(),
                    r.change(),
                    ci[0],
                    ci[1],
                    RunDiff.verdict(ci[0], ci[1], r.better(), r.relative() ? noiseThreshold : 0)));
        }
        return out;
    }

    private List<Pending> probeRows(String point, ProbeReport a, Path dirA, ProbeReport b, Path dirB) {
        boolean openA = a.run().load() instanceof LoadModel.Open;
        boolean openB = b.run().load() instanceof LoadModel.Open;
        Records ra = records(dirA);
        Records rb = records(dirB);
        Bootstrap ba = new Bootstrap(ra.records, openA, resamples, seed);
        Bootstrap bb = new Bootstrap(rb.records, openB, resamples, seed + 1);
        List<Pending> rows = new ArrayList<>();
        List<SloMetric> latencies = new ArrayList<>(List.of(SloMetric.TTFT, SloMetric.TPOT));
        if (ra.everyChunk && rb.everyChunk) latencies.add(SloMetric.ITL);
        latencies.add(SloMetric.E2E);
        for (SloMetric m : latencies) {
            Metric metric = metricOf(m);
            Distribution da = a.summary().distribution(metric);
            Distribution db = b.summary().distribution(metric);
            for (int q = 0; q < QUANTILES.length; q++) {
                double va = stat(da, q), vb = stat(db, q);
                double[] changes = ratioChanges(ba.quantile(m, QUANTILES[q]), bb.quantile(m, QUANTILES[q]));
                rows.add(row(point, metric.key(), STATS[q], "ms", Better.LOWER, va, vb, true, changes));
            }
        }
        ToDoubleFunction<RequestRecord> tokens = r -> r.succeeded() ? r.completionTokens() : 0;
        ToDoubleFunction<RequestRecord> served = r -> r.succeeded() ? 1 : 0;
        rows.add(rateRow(
                point,
                "output_tokens_per_s",
                "tok/s",
                a.summary().outputTokensPerS(),
                b.summary().outputTokensPerS(),
                ba,
                bb,
                tokens));
        rows.add(rateRow(
                point,
                "requests_per_s",
                "req/s",
                a.summary().requestsPerS(),
                b.summary().requestsPerS(),
                ba,
                bb,
                served));
        double[] ea = ba.errorRate(), eb = bb.errorRate();
        double[] diffs = new double[resamples];
        for (int i = 0; i < resamples; i++) diffs[i] = eb[i] - ea[i];
        rows.add(row(
                point,
                "error_rate",
                "value",
                "fraction",
                Better.LOWER,
                a.summary().errorRate(),
                b.summary().errorRate(),
                false,
                diffs));
        return rows;
    }

    /** A rate's row: the resampled changes of each run's ratio estimator of {@code q}, scaled to its rate. */
    private static Pending rateRow(
            String point,
            String metric,
            String unit,
            double a,
            double b,
            Bootstrap ba,
            Bootstrap bb,
            ToDoubleFunction<RequestRecord> q) {
        double[] changes = ratioChanges(scaled(ba.rateRatio(q), a), scaled(bb.rateRatio(q), b));
        return row(point, metric, "value", unit, Better.HIGHER, a, b, true, changes);
    }

    /** Each of {@code ratios} times {@code value}: a run's resampled rate from its relative ones. */
    private static double[] scaled(double[] ratios, double value) {
        double[] out = new double[ratios.length];
        for (int i = 0; i < out.length; i++) out[i] = ratios[i] * value;
        return out;
    }

    /** B's resample over A's, less 1: a relative change per resample pair. */
    private static double[] ratioChanges(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) out[i] = a[i] > 0 ? b[i] / a[i] - 1 : Double.NaN;
        return out;
    }

    private static Pending row(
            String point,
            String metric,
            String stat,
            String unit,
            Better better,
            double a,
            double b,
            boolean relative,
            double[] changes) {
        double change = relative ? (a > 0 ? b / a - 1 : Double.NaN) : b - a;
        return new Pending(
                new Row(
                        point,
                        metric,
                        stat,
                        unit,
                        better,
                        a,
                        b,
                        relative,
                        change,
                        Double.NaN,
                        Double.NaN,
                        RunDiff.Verdict.SAME),
                changes);
    }

    private Row searchRow(SearchReport a, SearchReport b) {
        double va = a.value(), vb = b.value();
        double low = a.ciHigh() > 0 ? b.ciLow() / a.ciHigh() - 1 : Double.NaN;
        double high = a.ciLow() > 0 ? b.ciHigh() / a.ciLow() - 1 : Double.NaN;
        double change = va > 0 ? vb / va - 1 : Double.NaN;
        return new Row(
                a.objective(),
                "answer",
                "value",
                unitOf(a),
                Better.HIGHER,
                va,
                vb,
                true,
                change,
                low,
                high,
                RunDiff.verdict(low, high, Better.HIGHER, noiseThreshold));
    }

    private static String unitOf(SearchReport s) {
        return switch (s.objective()) {
            case "max-rate" -> "req/s";
            default -> s.run().load() instanceof LoadModel.Open ? "req/s" : "users";
        };
    }

    private static Metric metricOf(SloMetric m) {
        return switch (m) {
            case TTFT -> Metric.TTFT_MS;
            case TPOT -> Metric.TPOT_MS;
            case ITL -> Metric.ITL_MS;
            case E2E -> Metric.E2E_MS;
            default -> throw new IllegalStateException(m + " is no request metric");
        };
    }

    private static double stat(Distribution d, int q) {
        return switch (q) {
            case 0 -> d.p50();
            case 1 -> d.p90();
            default -> d.p99();
        };
    }

    private record Records(List<RequestRecord> records, boolean everyChunk) {}

    private static Records records(Path dir) {
        Path file = dir == null ? null : dir.resolve("requests.jsonl");
        if (file == null || !Files.isRegularFile(file)) {
            throw new BadInputException(dir + " has no requests.jsonl: a diff judges noise from every request");
        }
        List<RequestRecord> out = new ArrayList<>();
        RequestsJsonl.ChunkTimes chunks = RequestsJsonl.records(file, r -> out.add(r.record()));
        return new Records(out, chunks.firstAndLastOnly() == 0);
    }
}
