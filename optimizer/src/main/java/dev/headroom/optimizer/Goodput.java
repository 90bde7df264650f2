package dev.headroom.optimizer;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import java.util.List;

/**
 * A probe's goodput (as {@link Metrics} defines it) with a standard error from its requests: good requests
 * (or their output tokens) g_i over the window T give goodput Σg_i ÷ T, and, counting arrivals as a compound
 * Poisson process, se = √(Σg_i²) ÷ T (conservative in closed loop, where counts vary less).
 */
public record Goodput(double value, double se) {

    /** What goodput counts. */
    public enum Unit {
        REQUESTS("requests"),
        TOKENS("tokens");

        private final String wireName;

        Unit(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** The unit as goodput is printed: requests/s or output tokens/s. */
        public String rateUnit() {
            return this == REQUESTS ? "good requests/s" : "good output tokens/s";
        }

        public static Unit parse(String s) {
            for (Unit u : values()) if (u.wireName.equals(s.trim())) return u;
            throw new BadInputException("bad {goodput-unit} '" + s + "': valid values are requests, tokens");
        }
    }

    public static Goodput of(List<RequestRecord> records, boolean openLoop, List<Slo> slos, Unit unit) {
        Summary s = Metrics.summarize(records, openLoop, slos);
        double window = s.windowSeconds();
        if (!(window > 0)) return new Goodput(0, 0);
        // Requests an error-rate SLO would fail are still counted per request; goodput is per-request by definition.
        double sumSquares = 0, typical = 0;
        long n = 0;
        for (RequestRecord r : records) {
            if (r.warmup() || !r.measured()) continue;
            double size = unit == Unit.REQUESTS ? 1 : r.completionTokens();
            typical += unit == Unit.REQUESTS ? 1 : Math.max(r.completionTokens(), r.requestedOutputTokens());
            n++;
            if (Metrics.isGood(r, openLoop, slos)) sumSquares += size * size;
        }
        double value = unit == Unit.REQUESTS ? s.goodputRequestsPerS() : s.goodputTokensPerS();
        // No good request: the error is that of one good request of typical size, not zero.
        double se = sumSquares > 0 ? Math.sqrt(sumSquares) / window : (n == 0 ? 1 : typical / n) / window;
        return new Goodput(value, se);
    }

    /**
     * The share of measured requests that would still be good had each waited {@code delayMs} longer in the server's
     * queue (its TTFT and e2e that much longer), over the share good as measured; 1 when none is good.
     */
    static double shareKeptWhenDelayed(List<RequestRecord> records, boolean openLoop, List<Slo> slos, double delayMs) {
        long good = 0, kept = 0;
        for (RequestRecord r : records) {
            if (r.warmup() || !r.measured() || !Metrics.isGood(r, openLoop, slos)) continue;
            good++;
            boolean still = true;
            for (Slo slo : slos) {
                if (slo.isRate() || slo.metric().perSession() || !slo.metric().queued()) continue;
                double ms = slo.metric().valueMs(r, openLoop);
                if (!Double.isNaN(ms) && !slo.met(ms + delayMs)) still = false;
            }
            if (still) kept++;
        }
        return good == 0 ? 1 : (double) kept / good;
    }

    /** The share of good requests a full batch may lose to the wait of users queued beyond it. */
    static final double ROOM_LOSS = 0.01;

    /**
     * How many users a closed loop of {@code users} could add to wait for a slot of its full batch before more than
     * {@value #ROOM_LOSS} of its good requests would miss an SLO: the batch serves users ÷ mean(e2e) requests/s
     * (Little's law), and k users waiting ahead add k ÷ that to every request's TTFT and e2e. 0 when none was good.
     */
    static int queueRoom(List<RequestRecord> records, int users, List<Slo> slos) {
        double seconds = records.stream()
                .filter(r -> !r.warmup() && r.succeeded() && r.endNanos() > r.sentNanos())
                .mapToDouble(r -> (r.endNanos() - r.sentNanos()) / 1e9)
                .average()
                .orElse(Double.NaN);
        boolean anyGood = records.stream().anyMatch(r -> !r.warmup() && Metrics.isGood(r, false, slos));
        if (!(seconds > 0) || users < 1 || !anyGood) return 0;
        double msPerUser = 1000 * seconds / users;
        int lo = 0, hi = 1;
        while (hi < 1 << 20 && shareKeptWhenDelayed(records, false, slos, msPerUser * hi) >= 1 - ROOM_LOSS) {
            lo = hi;
            hi *= 2;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (shareKeptWhenDelayed(records, false, slos, msPerUser * mid) >= 1 - ROOM_LOSS) lo = mid;
            else hi = mid;
        }
        return lo;
    }

    /**
     * A closed loop's goodput in its steady state, by Little's law: {@code users} requests are always in flight,
     * each user sending again as soon as its request ends, so the loop serves users ÷ mean(request time)
     * requests per second; goodput is users × Σg ÷ Σd, d a request's time from send to end, over the measured
     * requests sent before the drain (the last send less one mean request time: later ones end while users drop
     * out). Good requests ÷ window ({@link #of}) counts that drain, and reads a probe low by a share that falls as
     * the probe grows. se: the ratio estimator's, users × √(Σ(g − R·d)² ÷ ((n − 1)·n_eff)) ÷ mean(d), R = Σg ÷ Σd,
     * n_eff the effective sample size of the residuals in send order ({@link EffectiveSize}).
     */
    public static Goodput steadyState(List<RequestRecord> records, int users, List<Slo> slos, Unit unit) {
        long lastSend = Long.MIN_VALUE, sumNanos = 0, count = 0;
        for (RequestRecord r : records) {
            lastSend = Math.max(lastSend, r.sentNanos());
            if (r.warmup() || !r.measured() || r.endNanos() <= r.sentNanos()) continue;
            sumNanos += r.endNanos() - r.sentNanos();
            count++;
        }
        if (count == 0) return new Goodput(0, 0);
        long drain = lastSend - sumNanos / count;
        long kept = records.stream()
                .filter(r -> !r.warmup() && r.measured() && r.endNanos() > r.sentNanos() && r.sentNanos() <= drain)
                .count();
        long cutoff = kept < MIN_STEADY ? Long.MAX_VALUE : drain;
        double sumG = 0, sumD = 0;
        List<double[]> gd = new java.util.ArrayList<>();
        List<RequestRecord> inOrder = records.stream()
                .sorted(java.util.Comparator.comparingLong(RequestRecord::sentNanos))
                .toList();
        for (RequestRecord r : inOrder) {
            if (r.warmup() || !r.measured() || r.endNanos() <= r.sentNanos() || r.sentNanos() > cutoff) continue;
            double d = (r.endNanos() - r.sentNanos()) / 1e9;
            double g = Metrics.isGood(r, false, slos) ? (unit == Unit.REQUESTS ? 1 : r.completionTokens()) : 0;
            gd.add(new double[] {g, d});
            sumG += g;
            sumD += d;
        }
        int n = gd.size();
        double ratio = sumG / sumD, meanD = sumD / n, ss = 0;
        double[] residuals = new double[n];
        for (int i = 0; i < n; i++) {
            residuals[i] = gd.get(i)[0] - ratio * gd.get(i)[1];
            ss += residuals[i] * residuals[i];
        }
        // Requests that ran in one batch move together: the effective size of the residuals in send order.
        double se = n > 1 ? users * Math.sqrt(ss / (n - 1.0) / EffectiveSize.of(residuals)) / meanD : users * ratio;
        if (sumG == 0) se = users / sumD;
        return new Goodput(users * ratio, se);
    }

    /** Fewer measured requests than this before the drain: the steady state counts them all. */
    static final int MIN_STEADY = 30;
}
