package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SloJudge;
import dev.headroom.model.SloMetric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * A moving-block bootstrap over one run's measured requests in send order: each resample draws blocks of
 * ⌈n^⅓⌉ consecutive requests with replacement (so requests that queued together stay together) and weighs every
 * value by how often its request was drawn. It gives, per resample, a latency statistic (weighted nearest rank),
 * an error rate, or a rate (a ratio estimator), from which {@link Differ} takes the interval of a change.
 */
final class Bootstrap {
    private static final int REQUEST_BITS = 24;
    private static final long REQUEST_MASK = (1L << REQUEST_BITS) - 1;
    private static final long MAX_VALUE = (1L << (63 - REQUEST_BITS)) - 1;
    /** The most requests a run may have to be resampled (2^24). */
    static final int MAX_REQUESTS = 1 << REQUEST_BITS;

    private final List<RequestRecord> measured;
    private final boolean openLoop;
    private final int resamples;
    private final int block;
    private final long seed;

    /** {@code resamples} resamples of {@code records}' measured requests (warm-up and the client's own errors out). */
    Bootstrap(List<RequestRecord> records, boolean openLoop, int resamples, long seed) {
        List<RequestRecord> m = new ArrayList<>();
        for (RequestRecord r : records) {
            if (!r.warmup() && r.outcome() != RequestRecord.Outcome.CLIENT_ERROR) m.add(r);
        }
        m.sort((x, y) -> Long.compare(x.sentNanos(), y.sentNanos()));
        if (m.size() > MAX_REQUESTS) {
            throw new BadInputException(
                    "a diff resamples at most " + MAX_REQUESTS + " requests a run, got " + m.size());
        }
        this.measured = m;
        this.openLoop = openLoop;
        this.resamples = resamples;
        this.block = Math.max(1, (int) Math.ceil(Math.cbrt(m.size())));
        this.seed = seed;
    }

    /**
     * Resample {@code b}'s weights into {@code w}: how often each request was drawn. Made again on each call from
     * the seed and {@code b} (n ints, not resamples × n), so every quantity sees the same resamples.
     */
    private int[] weights(int b, int[] w) {
        int n = w.length;
        Arrays.fill(w, 0);
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + b);
        int drawn = 0;
        while (drawn < n) {
            int start = random.nextInt(Math.max(1, n - block + 1));
            for (int i = start; i < Math.min(n, start + block) && drawn < n; i++, drawn++) w[i]++;
        }
        return w;
    }

    /** Measured requests. */
    int size() {
        return measured.size();
    }

    /** Per resample, the {@code quantile} (0..1) of {@code metric}'s values in ms; NaN where none. */
    double[] quantile(SloMetric metric, double quantile) {
        // Each value packed with its request (value µs in the high 40 bits), so one primitive sort orders them.
        long[][] packed = {new long[1024]};
        int[] count = {0};
        for (int i = 0; i < measured.size(); i++) {
            long request = i;
            SloJudge.valuesMicros(metric, measured.get(i), openLoop, v -> {
                if (count[0] == packed[0].length) packed[0] = Arrays.copyOf(packed[0], count[0] * 2);
                packed[0][count[0]++] = (Math.min(v, MAX_VALUE) << REQUEST_BITS) | request;
            });
        }
        long[] values = Arrays.copyOf(packed[0], count[0]);
        Arrays.sort(values);
        double[] out = new double[resamples];
        int[] w = new int[measured.size()];
        for (int b = 0; b < resamples; b++) {
            weights(b, w);
            long total = 0;
            for (long v : values) total += w[(int) (v & REQUEST_MASK)];
            if (total == 0) {
                out[b] = Double.NaN;
                continue;
            }
            long rank = Math.max(1, (long) Math.ceil(quantile * total));
            long seen = 0;
            long at = values[values.length - 1];
            for (long v : values) {
                seen += w[(int) (v & REQUEST_MASK)];
                if (seen >= rank) {
                    at = v;
                    break;
                }
            }
            out[b] = (at >>> REQUEST_BITS) / 1e3;
        }
        return out;
    }

    /**
     * Per resample, the rate of {@code q} relative to the run's own (1 is the run itself), as a ratio estimator over
     * the same resampled requests: Σ w·q ÷ Σ w·t, t the time each request stands for — in a closed loop its E2E
     * (a user's rate is its answers' length over the time they take), in an open loop its gap to the previous
     * intended send (the rate is what arrived). Unfinished requests are left out.
     */
    double[] rateRatio(ToDoubleFunction<RequestRecord> q) {
        int n = measured.size();
        double[] x = new double[n], t = new double[n];
        double sx = 0, st = 0;
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            RequestRecord r = measured.get(i);
            long gap = previous == Long.MIN_VALUE ? 0 : Math.max(0, r.intendedNanos() - previous);
            previous = r.intendedNanos();
            if (r.outcome() == RequestRecord.Outcome.INCOMPLETE) continue;
            x[i] = q.applyAsDouble(r);
            t[i] = openLoop ? gap : Math.max(0, r.endNanos() - r.sentNanos());
            sx += x[i];
            st += t[i];
        }
        double[] out = new double[resamples];
        int[] w = new int[n];
        double base = sx / st;
        for (int b = 0; b < resamples; b++) {
            weights(b, w);
            double wx = 0, wt = 0;
            for (int i = 0; i < n; i++) {
                wx += w[i] * x[i];
                wt += w[i] * t[i];
            }
            out[b] = st > 0 && sx > 0 && wt > 0 ? (wx / wt) / base : Double.NaN;
        }
        return out;
    }

    /** Per resample, the share of measured requests (completed or failed) that failed. */
    double[] errorRate() {
        double[] out = new double[resamples];
        int[] w = new int[measured.size()];
        for (int b = 0; b < resamples; b++) {
            weights(b, w);
            long failed = 0, counted = 0;
            for (int i = 0; i < measured.size(); i++) {
                RequestRecord.Outcome o = measured.get(i).outcome();
                if (o == RequestRecord.Outcome.INCOMPLETE) continue;
                counted += w[i];
                if (o == RequestRecord.Outcome.FAILED) failed += w[i];
            }
            out[b] = counted > 0 ? (double) failed / counted : Double.NaN;
        }
        return out;
    }

    /**
     * The central 1 − {@code alpha} interval of {@code changes} (their alpha/2 and 1 − alpha/2 quantiles), NaNs left
     * out; NaN when fewer than 2 ÷ alpha remain, too few to reach its tails.
     */
    static double[] interval(double[] changes, double alpha) {
        double[] finite =
                Arrays.stream(changes).filter(Double::isFinite).sorted().toArray();
        if (finite.length < 2 / alpha) return new double[] {Double.NaN, Double.NaN};
        int n = finite.length;
        return new double[] {
            finite[(int) Math.floor(alpha / 2 * (n - 1))], finite[(int) Math.ceil((1 - alpha / 2) * (n - 1))]
        };
    }
}
