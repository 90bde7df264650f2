package dev.headroom.cli.bench;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.optimizer.Margin;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.sim.VirtualEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Max-rate search evaluation: on the servers of {@link SearchEvaluationBenchmark} (the same seeds), the true max
 * Poisson arrival rate under the TTFT SLO by dense open-loop evaluation, then Headroom's max-rate search as
 * {@code headroom search --objective max-rate --virtual} runs it (probes of 200 requests, no time cap). Reports the
 * share within 5 % of the truth, median and p90 probes, and total requests. Run (after
 * {@code ./mvnw install -DskipTests}): {@code ./mvnw -q -Pbench test -pl cli -Dtest=RateSearchEvaluationBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dbench.rate.servers=N}, default 200); writes
 * cli/target/benchmark-rate-evaluation.json.
 */
@Tag("benchmark")
class RateSearchEvaluationBenchmark {
    private static final int SERVERS = Integer.getInteger("bench.rate.servers", 200);
    private static final double MIN_RATE = 1, MAX_RATE = 1024;
    /** Requests measured at each truth point (at least {@link #TRUTH_LIFETIMES} request lifetimes of arrivals). */
    private static final int TRUTH_REQUESTS = 2000;
    /**
     * Lone-request lifetimes of arrivals a truth point measures at least, after {@link #WARMUP_LIFETIMES} of warm-up: a
     * probe measures eight (a soak 32), and near capacity a queue builds over many.
     */
    private static final double TRUTH_LIFETIMES = 20, WARMUP_LIFETIMES = 5;
    /**
     * How many times a truth point near the crossing is measured longer than the rest ({@code -Dbench.rate.fine=N}): at
     * 3 two truths of a server agreed within 5 % on 89.5 % of servers, at 12 on 98.2 % (docs/search.md).
     */
    private static final int FINE_FACTOR = Integer.getInteger("bench.rate.fine", 12);

    /**
     * {@code -Dbench.truth.repeat=true}: every truth evaluated again on other arrivals, reporting how often the two
     * agree within 5 % and the search's share within 5 % of the second — the ceiling the truth's own noise sets.
     */
    private static final boolean REPEAT_TRUTH = Boolean.getBoolean("bench.truth.repeat");

    @Test
    void maxRate() throws Exception {
        int evaluated = 0, within = 0, repeatAgrees = 0, withinRepeated = 0;
        long requests = 0;
        List<Integer> probes = new ArrayList<>();
        for (int s = SearchEvaluationBenchmark.FIRST; s < SearchEvaluationBenchmark.FIRST + SERVERS; s++) {
            SearchEvaluationBenchmark.Case c = SearchEvaluationBenchmark.randomCase(new SplittableRandom(1000 + s));
            final int server = s;
            double truth = TruthCache.value("rate", c, () -> truth(c, server), truthKey(server));
            if (Double.isNaN(truth)) {
                System.out.printf(
                        Locale.ROOT, "case %3d: true max rate outside %.0f..%.0f, skipped%n", s, MIN_RATE, MAX_RATE);
                continue;
            }
            SearchSpec spec = new SearchSpec(
                    SearchSpec.Objective.MAX_RATE,
                    List.of(c.slo()),
                    MIN_RATE,
                    MAX_RATE,
                    0.05,
                    20,
                    c.workload(),
                    RunLength.requests(200),
                    new ArrivalProcess.Poisson(),
                    100L * s);
            long[] spent = {0};
            SearchReport r = SearchEvaluationBenchmark.searchAsTheCliDoes(
                    spec, c.engine(), new VirtualEngine(c.engine()), spent);
            boolean ok = Math.abs(r.value() - truth) / truth <= 0.05;
            if (REPEAT_TRUTH) {
                double again =
                        TruthCache.value("rate", c, () -> truth(c, server + 100_000), truthKey(server + 100_000));
                if (Math.abs(again - truth) / truth <= 0.05) repeatAgrees++;
                if (Math.abs(r.value() - again) / again <= 0.05) withinRepeated++;
                System.out.printf(Locale.ROOT, "case %3d: truth %.2f, repeated %.2f%n", s, truth, again);
            }
            evaluated++;
            if (ok) within++;
            requests += spent[0];
            probes.add(SearchEvaluationBenchmark.searchProbes(r));
            System.out.printf(
                    Locale.ROOT,
                    "case %3d %-10s %-18s truth %8.2f req/s  headroom %8.2f (%2d probes, %s)%s%n",
                    s,
                    c.engine().hardware().name(),
                    c.slo().text(),
                    truth,
                    r.value(),
                    SearchEvaluationBenchmark.searchProbes(r),
                    r.stopReason().wireName(),
                    ok ? "" : "  MISS");
            if (Boolean.getBoolean("bench.verbose")) {
                System.out.println("  probes "
                        + r.probes().stream()
                                .map(o -> String.format(
                                        Locale.ROOT,
                                        "%.2f:%+.2f±%.2f(%d)",
                                        o.load(),
                                        o.margins().values().iterator().next().value(),
                                        o.margins().values().iterator().next().se(),
                                        o.requests()))
                                .toList());
            }
        }
        probes.sort(null);
        String json = String.format(
                Locale.ROOT,
                "{\"benchmark\":\"rate-search-evaluation\",\"servers\":%d,\"evaluated\":%d,"
                        + "\"within_5pct\":%.3f,\"median_probes\":%d,\"p90_probes\":%d,\"total_requests\":%d}",
                SERVERS,
                evaluated,
                (double) within / Math.max(1, evaluated),
                probes.get(probes.size() / 2),
                probes.get((int) Math.ceil(probes.size() * 0.9) - 1),
                requests);
        if (REPEAT_TRUTH) {
            json = json.substring(0, json.length() - 1)
                    + String.format(
                            Locale.ROOT,
                            ",\"truth_repeat_within_5pct\":%.3f,\"within_5pct_of_repeated_truth\":%.3f}",
                            (double) repeatAgrees / Math.max(1, evaluated),
                            (double) withinRepeated / Math.max(1, evaluated));
        }
        System.out.println(json);
        System.out.println(TruthCache.describe());
        Files.writeString(Path.of("target", "benchmark-rate-evaluation.json"), json + "\n");
    }

    /** A truth's cache key: its server, and its fine length where that is not the default (older keys stay valid). */
    private static Object[] truthKey(int server) {
        return FINE_FACTOR == 3 ? new Object[] {server} : new Object[] {server, "fine" + FINE_FACTOR};
    }

    /**
     * The true max rate: the steady-state margin at 41 log-spaced rates from {@link #MIN_RATE} (scanning up, stopping
     * two sure fails past the crossing: above capacity the queue only grows); then every rate within a factor 1.5 of
     * the crossing measured again {@link #FINE_FACTOR} times as long, and the crossing bisected (in log rate) at that
     * length to 1 %. The truth is the largest rate whose isotonic-fitted margin is below zero. NaN outside the range.
     * Each server's truth runs on arrivals of its own ({@code server}): with one seed for all, every truth shares one
     * arrival sequence's error, and the whole score moves with it (docs/search.md).
     */
    static double truth(SearchEvaluationBenchmark.Case c, int server) {
        double lifetime = SearchEvaluationBenchmark.rampSeconds(c);
        TreeMap<Double, Margin> points = new TreeMap<>();
        int sureFails = 0;
        for (int k = 0; k <= 40 && sureFails < 2; k++) {
            double rate = MIN_RATE * Math.pow(MAX_RATE / MIN_RATE, k / 40.0);
            Margin m = margin(c, rate, lifetime, 1, server);
            points.put(rate, m);
            if (m.value() > 3 * m.se()) sureFails++;
        }
        double[] bracket = crossing(points);
        if (bracket == null) return Double.NaN;
        for (double rate : List.copyOf(
                points.subMap(bracket[0] / 1.5, true, bracket[1] * 1.5, true).keySet())) {
            points.put(rate, margin(c, rate, lifetime, FINE_FACTOR, server));
        }
        bracket = crossing(points);
        while (bracket != null && bracket[1] / bracket[0] > 1.01) {
            double mid = Math.sqrt(bracket[0] * bracket[1]);
            points.put(mid, margin(c, mid, lifetime, FINE_FACTOR, server));
            bracket = crossing(points);
        }
        return bracket == null ? Double.NaN : bracket[0];
    }

    /** The TTFT margin (from the intended send time) of a long Poisson run at {@code rate} after its warm-up. */
    static Margin margin(SearchEvaluationBenchmark.Case c, double rate, double lifetime, int lengthFactor, int server) {
        int warmup = (int) Math.ceil(rate * Math.max(2, WARMUP_LIFETIMES * lifetime));
        int measured = lengthFactor * (int) Math.max(TRUTH_REQUESTS, Math.ceil(rate * TRUTH_LIFETIMES * lifetime));
        Measurement m = new VirtualEngine(c.engine())
                .measure(new MeasurementRequest(
                        new LoadModel.Open(rate, new ArrivalProcess.Poisson()),
                        c.workload(),
                        new RunLength(measured, 36000, warmup, 0),
                        11 + lengthFactor + 7919L * server));
        return Margin.of(c.slo(), m.records(), true);
    }

    /** {largest rate whose fitted margin is below zero, the next rate measured}; null when none or all pass. */
    private static double[] crossing(TreeMap<Double, Margin> points) {
        double[] rates =
                points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
        int f = SearchEvaluationBenchmark.lowestFailing(List.copyOf(points.values()));
        return f <= 0 ? null : new double[] {rates[f - 1], rates[f]};
    }
}
