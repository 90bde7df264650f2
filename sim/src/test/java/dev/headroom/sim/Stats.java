package dev.headroom.sim;

import dev.headroom.model.Measurement;
import dev.headroom.model.RequestRecord;
import java.util.Arrays;

/** Test helpers that summarise a virtual run. */
final class Stats {
    private Stats() {}

    static double percentile(double[] values, double p) {
        double[] v = values.clone();
        Arrays.sort(v);
        if (v.length == 0) return Double.NaN;
        int i = (int) Math.ceil(p / 100 * v.length) - 1;
        return v[Math.max(0, Math.min(v.length - 1, i))];
    }

    static double[] ttftSeconds(Measurement m) {
        return m.records().stream()
                .filter(RequestRecord::succeeded)
                .mapToDouble(r -> (r.firstTokenNanos() - r.intendedNanos()) / 1e9)
                .toArray();
    }

    static double[] e2eSeconds(Measurement m) {
        return m.records().stream()
                .filter(RequestRecord::succeeded)
                .mapToDouble(r -> (r.endNanos() - r.intendedNanos()) / 1e9)
                .toArray();
    }

    /** Every gap between consecutive tokens of every request, in seconds. */
    static double[] itlSeconds(Measurement m) {
        return m.records().stream()
                .filter(RequestRecord::succeeded)
                .flatMapToDouble(r -> {
                    long[] t = r.chunkNanos();
                    double[] gaps = new double[Math.max(0, t.length - 1)];
                    for (int i = 1; i < t.length; i++) gaps[i - 1] = (t[i] - t[i - 1]) / 1e9;
                    return Arrays.stream(gaps);
                })
                .toArray();
    }

    /** The longest gap between consecutive tokens of each request, in seconds. */
    static double[] maxGapSeconds(Measurement m) {
        return m.records().stream()
                .filter(RequestRecord::succeeded)
                .mapToDouble(r -> {
                    long[] t = r.chunkNanos();
                    long max = 0;
                    for (int i = 1; i < t.length; i++) max = Math.max(max, t[i] - t[i - 1]);
                    return max / 1e9;
                })
                .toArray();
    }

    /** Output tokens per second over the whole run. */
    static double outputTokensPerSecond(Measurement m) {
        long tokens =
                m.records().stream().mapToLong(RequestRecord::completionTokens).sum();
        return tokens / (m.elapsedNanos() / 1e9);
    }

    static int preemptions(Measurement m) {
        return m.records().stream().mapToInt(RequestRecord::preemptions).sum();
    }
}
