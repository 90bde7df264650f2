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
}
