package dev.headroom.optimizer;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.RunLength;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.Workload;
import java.util.List;

/**
 * What to search for and within which limits.
 *
 * @param objective  {@code max-concurrency} (closed loop, integer loads), {@code max-rate} (open loop) or
 *                   {@code max-goodput} (either)
 * @param arrivals   open-loop arrival process for max-rate (and open-loop max-goodput)
 * @param tolerance  stop when the bracket's relative width (hi − lo) ÷ lo is below this and the answer is confirmed
 *                   within it
 * @param perProbe   how long each probe runs
 * @param openLoop   loads are request rates (open loop) rather than concurrencies (closed loop)
 * @param goodputUnit what max-goodput maximises: good requests/s or their output tokens/s
 */
public record SearchSpec(
        Objective objective,
        List<Slo> slos,
        double min,
        double max,
        double tolerance,
        int maxProbes,
        Workload workload,
        RunLength perProbe,
        ArrivalProcess arrivals,
        long seed,
        boolean openLoop,
        Goodput.Unit goodputUnit,
        SessionSpec sessions) {

    /** What the search looks for. */
    public enum Objective {
        MAX_CONCURRENCY("max-concurrency"),
        MAX_RATE("max-rate"),
        MAX_GOODPUT("max-goodput");

        private final String wireName;

        Objective(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Objective parse(String s) {
            for (Objective o : values()) if (o.wireName.equals(s.trim())) return o;
            throw new BadInputException(
                    "bad {objective} '" + s + "': valid values are max-concurrency, max-rate, max-goodput");
        }

        /** Whether it searches a request rate (open loop): max-rate always, max-goodput along {@code axis}. */
        public boolean openLoop(LoadAxis axis) {
            return switch (this) {
                case MAX_CONCURRENCY -> false;
                case MAX_RATE -> true;
                case MAX_GOODPUT -> axis == LoadAxis.RATE;
            };
        }
    }

    /** What a max-goodput search varies: users (closed loop) or the request rate (open loop). */
    public enum LoadAxis {
        CONCURRENCY,
        RATE;

        public static LoadAxis parse(String s) {
            return switch (s.trim()) {
                case "concurrency" -> CONCURRENCY;
                case "rate" -> RATE;
                default ->
                    throw new BadInputException("bad {load-axis} '" + s + "': valid values are concurrency, rate");
            };
        }
    }

    public SearchSpec {
        if (slos.isEmpty()) throw new BadInputException("a search needs at least one {slo}");
        if (!(min > 0) || !(max >= min))
            throw new BadInputException("need 0 < {min} <= {max}, got " + min + " and " + max);
        if (!(tolerance > 0 && tolerance < 1))
            throw new BadInputException("{tolerance} must be in (0, 1), got " + tolerance);
        if (maxProbes < 2) throw new BadInputException("{max-probes} must be >= 2, got " + maxProbes);
        if (objective == Objective.MAX_CONCURRENCY && openLoop)
            throw new BadInputException("max-concurrency is closed loop");
        if (objective == Objective.MAX_RATE && !openLoop) throw new BadInputException("max-rate is open loop");
        slos = List.copyOf(slos);
    }

    /** Independent requests. */
    public SearchSpec(
            Objective objective,
            List<Slo> slos,
            double min,
            double max,
            double tolerance,
            int maxProbes,
            Workload workload,
            RunLength perProbe,
            ArrivalProcess arrivals,
            long seed,
            boolean openLoop,
            Goodput.Unit goodputUnit) {
        this(
                objective,
                slos,
                min,
                max,
                tolerance,
                maxProbes,
                workload,
                perProbe,
                arrivals,
                seed,
                openLoop,
                goodputUnit,
                null);
    }

    /**
     * This search over sessions of {@code spec}: its load is sessions in progress (closed loop) or new sessions per
     * second (open loop), and every turn is judged by the SLOs.
     */
    public SearchSpec withSessions(SessionSpec spec) {
        return new SearchSpec(
                objective,
                slos,
                min,
                max,
                tolerance,
                maxProbes,
                workload,
                perProbe,
                arrivals,
                seed,
                openLoop,
                goodputUnit,
                spec);
    }

    /** A boundary search (max-concurrency: closed loop; max-rate: open loop), goodput in requests. */
    public SearchSpec(
            Objective objective,
            List<Slo> slos,
            double min,
            double max,
            double tolerance,
            int maxProbes,
            Workload workload,
            RunLength perProbe,
            ArrivalProcess arrivals,
            long seed) {
        this(
                objective,
                slos,
                min,
                max,
                tolerance,
                maxProbes,
                workload,
                perProbe,
                arrivals,
                seed,
                objective == Objective.MAX_RATE,
                Goodput.Unit.REQUESTS);
    }

    /** Closed-loop loads are whole numbers of users. */
    public boolean integerLoad() {
        return !openLoop;
    }
}
