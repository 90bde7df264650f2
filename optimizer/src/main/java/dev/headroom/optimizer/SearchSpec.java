package dev.headroom.optimizer;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.RunLength;
import dev.headroom.model.Slo;
import dev.headroom.model.Workload;

import java.util.List;

/**
 * What to search for and within which limits.
 *
 * @param objective  {@code max-concurrency} (closed loop, integer loads) or {@code max-rate} (open loop)
 * @param arrivals   open-loop arrival process for max-rate
 * @param tolerance  stop when the bracket's relative width (hi − lo) ÷ lo is below this
 * @param perProbe   how long each probe runs
 */
public record SearchSpec(Objective objective, List<Slo> slos, double min, double max, double tolerance, int maxProbes,
                         Workload workload, RunLength perProbe, ArrivalProcess arrivals, long seed) {

    /** What the search looks for. */
    public enum Objective {
        MAX_CONCURRENCY("max-concurrency"), MAX_RATE("max-rate");

        private final String wireName;

        Objective(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Objective parse(String s) {
            for (Objective o : values()) if (o.wireName.equals(s.trim())) return o;
            throw new IllegalArgumentException("bad --objective '" + s + "': valid values are max-concurrency, max-rate");
        }
    }

    public SearchSpec {
        if (slos.isEmpty()) throw new IllegalArgumentException("a search needs at least one --slo");
        if (!(min > 0) || !(max >= min)) throw new IllegalArgumentException("need 0 < --min <= --max, got " + min + " and " + max);
        if (!(tolerance > 0 && tolerance < 1)) throw new IllegalArgumentException("--tolerance must be in (0, 1), got " + tolerance);
        if (maxProbes < 2) throw new IllegalArgumentException("--max-probes must be >= 2, got " + maxProbes);
        slos = List.copyOf(slos);
    }

    public boolean integerLoad() {
        return objective == Objective.MAX_CONCURRENCY;
    }
}
