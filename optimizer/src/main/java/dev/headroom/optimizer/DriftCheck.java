package dev.headroom.optimizer;

import dev.headroom.model.RequestRecord;
import dev.headroom.model.SearchDrift;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.stat.descriptive.moment.Mean;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;

/**
 * Compares two measurements of one load (is it still the same server?) and spots a probe that contradicts an earlier
 * one: the arithmetic of {@link SearchDrift}. Each SLO's statistic is {@code threshold × (1 + margin)}, so a margin's
 * change is the statistic's change in units of its threshold; the mean TPOT is compared too.
 */
final class DriftCheck {
    private DriftCheck() {}

    /** What a check calls the reference's mean TPOT. */
    static final String TPOT = "tpot mean";

    /**
     * The mean TPOT (ms) of the measured, successful requests of two tokens or more — (last token − first) ÷ (tokens −
     * 1), the server's time per decode step where nothing queues, whatever each answer's length — and its standard
     * error, from the effective sample size of the values in send order ({@link EffectiveSize}); NaN when none.
     */
    static SearchReport.Estimate tpot(List<RequestRecord> records) {
        double[] v = records.stream()
                .filter(r -> !r.warmup() && r.succeeded() && r.completionTokens() >= 2 && r.lastTokenNanos() >= 0)
                .sorted(java.util.Comparator.comparingLong(RequestRecord::sentNanos))
                .mapToDouble(r -> (r.lastTokenNanos() - r.firstTokenNanos()) / 1e6 / (r.completionTokens() - 1))
                .toArray();
        if (v.length < 2) return new SearchReport.Estimate(Double.NaN, Double.NaN);
        double mean = new Mean().evaluate(v);
        double sd = new StandardDeviation().evaluate(v, mean);
        return new SearchReport.Estimate(mean, sd / Math.sqrt(EffectiveSize.of(v)));
    }

    /**
     * The check of {@code again} against {@code first} (the same load): of every SLO's statistic (threshold × (1 +
     * margin)) and the mean TPOT (at a load where nothing queues, the server's speed: a lone request's TTFT is mostly
     * fixed cost, and read +7 % where every step was 20 % slower), the one that moved the most in standard errors
     * among those whose change exceeds {@code tolerance}, and whether that is drift — beyond {@link SearchDrift#Z}
     * standard errors and larger than the tolerance, a change too small to move the answer past its tolerance being
     * no threat to it.
     */
    static SearchDrift.Check compare(
            List<Slo> slos,
            SearchReport.Probe first,
            SearchReport.Probe again,
            SearchDrift.Trigger trigger,
            double tolerance) {
        List<double[]> moves = new ArrayList<>(); // {z, change}, in the order of names
        List<String> names = new ArrayList<>();
        for (Slo s : slos) {
            SearchReport.SloMargin a = first.margins().get(s.text()),
                    b = again.margins().get(s.text());
            if (a == null || b == null || !Double.isFinite(a.value()) || !Double.isFinite(b.value())) continue;
            if (!resolves(s, a) || !resolves(s, b)) continue;
            // (1 + b) ÷ (1 + a) − 1: the statistic's change relative to its first value.
            moves.add(move(b.value() - a.value(), Math.hypot(a.se(), b.se()), 1 + a.value()));
            names.add(s.text());
        }
        SearchReport.Estimate ea = first.tpot(), eb = again.tpot();
        if (ea.value() > 0 && Double.isFinite(eb.value()) && Double.isFinite(ea.se()) && Double.isFinite(eb.se())) {
            moves.add(move(eb.value() - ea.value(), Math.hypot(ea.se(), eb.se()), ea.value()));
            names.add(TPOT);
        }
        int pick = -1;
        boolean drifted = false;
        for (int k = 0; k < moves.size(); k++) {
            double z = moves.get(k)[0], change = moves.get(k)[1];
            boolean big = Double.isNaN(change) || Math.abs(change) > tolerance;
            boolean d = big && Math.abs(z) >= SearchDrift.Z;
            if (pick < 0 || (d && !drifted) || (d == drifted && Math.abs(z) > Math.abs(moves.get(pick)[0]))) pick = k;
            drifted |= d;
        }
        if (pick < 0) {
            return new SearchDrift.Check(
                    again.index(), trigger, first.index(), first.load(), null, Double.NaN, Double.NaN, false);
        }
        return new SearchDrift.Check(
                again.index(),
                trigger,
                first.index(),
                first.load(),
                names.get(pick),
                moves.get(pick)[1],
                moves.get(pick)[0],
                drifted);
    }

    /**
     * Whether {@code m} was measured on enough samples for its percentile's interval to lie inside them ({@link
     * Margin#samplesToResolve}; 72 for a p95): below that the statistic is the sample's far end and its standard error
     * a guess. A reference of ten lone requests (a 20-s probe at one user) reads its p95 as its slowest request, the
     * first ones of a freshly started JVM, and compared so its check called a stationary server drifting (−10 % at
     * 3.0 standard errors); the mean TPOT still checks the server's speed there.
     */
    private static boolean resolves(Slo s, SearchReport.SloMargin m) {
        if (s.stat() == null) return true; // a rate (error_rate): its se is the binomial one, whatever the count
        double q = s.stat().quantile();
        return !(q > 0 && q < 1) || m.samples() >= Margin.samplesToResolve(q);
    }

    /** {z, relative change} of a difference {@code diff} with standard error {@code se}, relative to {@code base}. */
    private static double[] move(double diff, double se, double base) {
        double z = se > 0 ? diff / se : (diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff));
        return new double[] {z, base > 0 ? diff / base : Double.NaN};
    }

    /**
     * Whether {@code p} contradicts one of {@code earlier} beyond their noise: a lower load failing an SLO surely (its
     * margin {@link SearchDrift#Z} standard errors above zero) where a higher load passes it surely (as far below) — a
     * stationary server does not get better at its SLO as its load rises. (Margins alone may dip a little with load,
     * far from the threshold: TTFT p95 read lower at 64 users than at 8 on the simulator, batches filling differently.)
     * The caller passes probes of one length only: a max-rate search's soaks are meant to read differently from its
     * short probes.
     */
    static boolean contradicts(List<Slo> slos, List<SearchReport.Probe> earlier, SearchReport.Probe p) {
        for (SearchReport.Probe q : earlier) {
            if (q.load() == p.load()) continue;
            SearchReport.Probe low = q.load() < p.load() ? q : p, high = q.load() < p.load() ? p : q;
            for (Slo s : slos) {
                SearchReport.SloMargin a = low.margins().get(s.text()),
                        b = high.margins().get(s.text());
                if (a == null || b == null || !(a.se() > 0) || !(b.se() > 0)) continue;
                if (a.value() >= SearchDrift.Z * a.se() && b.value() <= -SearchDrift.Z * b.se()) return true;
            }
        }
        return false;
    }
}
