package dev.headroom.model;

import java.util.Locale;

/**
 * The load applied at one load point: closed-loop concurrency or an open-loop arrival rate, never both; each variant
 * carries its own options (a closed loop's think time, an open loop's cap on requests in flight).
 */
public sealed interface LoadModel {

    /** A short human label, e.g. {@code concurrency=16} or {@code rate=4.0/s poisson}. */
    String label();

    /** A sweep or search point's run directory name, {@code index} from 0: {@code 03-concurrency=16}. */
    default String pointName(int index) {
        return pointName(index, label());
    }

    /** A point's run directory name from {@code label} (a load of sessions labels itself so). */
    static String pointName(int index, String label) {
        return String.format(Locale.ROOT, "%02d-%s", index + 1, label.replaceAll("[^A-Za-z0-9.=]+", "-"));
    }

    /**
     * {@code load} with a closed loop's think time or an open loop's cap on requests in flight (0: none) given apart
     * (as flags give them): each goes into its own variant, and the other's is refused.
     */
    static LoadModel withOptions(LoadModel load, double thinkTimeSeconds, int maxConcurrency) {
        if (!(thinkTimeSeconds >= 0) || Double.isInfinite(thinkTimeSeconds)) {
            throw new BadInputException("{think-time} must be >= 0 s, got " + thinkTimeSeconds);
        }
        if (maxConcurrency < 0) throw new BadInputException("{max-concurrency} must be >= 0, got " + maxConcurrency);
        return switch (load) {
            case null -> null;
            case LoadModel.Closed c -> {
                if (maxConcurrency > 0) {
                    throw new BadInputException("{max-concurrency} caps an open-loop {rate}; with {concurrency} the "
                            + "number of users is already the cap");
                }
                yield thinkTimeSeconds > 0 ? new LoadModel.Closed(c.concurrency(), thinkTimeSeconds) : c;
            }
            case LoadModel.Open o -> {
                if (thinkTimeSeconds > 0) {
                    throw new BadInputException("{think-time} paces closed-loop users; an open loop's arrivals do not "
                            + "wait for answers: drop it, or give {concurrency}");
                }
                yield maxConcurrency > 0 ? new LoadModel.Open(o.ratePerSecond(), o.arrivals(), maxConcurrency) : o;
            }
        };
    }

    /**
     * N virtual users; each sends its next request when its previous one ends and it has thought for
     * {@code thinkTimeSeconds} (a session's think time is its own: {@link SessionSpec#thinkTime}).
     */
    record Closed(int concurrency, double thinkTimeSeconds) implements LoadModel {
        /** The most users one load point holds. */
        public static final int MAX_USERS = 1_000_000;

        public Closed {
            if (concurrency < 1) {
                throw new BadInputException("concurrency must be >= 1, got " + concurrency);
            }
            if (concurrency > MAX_USERS) {
                // Each user is a connection with its requests in memory: 2e9 of them exhaust any heap.
                throw new BadInputException("{concurrency} must be at most " + MAX_USERS + " users, got " + concurrency
                        + "; past one machine, share the load with --workers");
            }
            if (!(thinkTimeSeconds >= 0) || Double.isInfinite(thinkTimeSeconds)) {
                throw new BadInputException("{think-time} must be >= 0 s, got " + thinkTimeSeconds);
            }
        }

        /** Users that send again at once. */
        public Closed(int concurrency) {
            this(concurrency, 0);
        }

        @Override
        public String label() {
            return "concurrency=" + concurrency;
        }
    }

    /**
     * Requests start at {@code ratePerSecond} on average, spaced by {@code arrivals}, whatever the server does; with
     * {@code maxConcurrency} above 0 no more than that many are in flight, and the time one waited for a slot is
     * reported.
     */
    record Open(double ratePerSecond, ArrivalProcess arrivals, int maxConcurrency) implements LoadModel {
        public Open {
            if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
                throw new BadInputException("request rate must be a positive number, got " + ratePerSecond);
            }
            if (arrivals == null) throw new IllegalArgumentException("an open-loop load needs an arrival process");
            if (maxConcurrency < 0) {
                throw new BadInputException("{max-concurrency} must be >= 0, got " + maxConcurrency);
            }
        }

        /** No cap on requests in flight. */
        public Open(double ratePerSecond, ArrivalProcess arrivals) {
            this(ratePerSecond, arrivals, 0);
        }

        @Override
        public String label() {
            String kind = switch (arrivals) {
                case ArrivalProcess.Constant c -> "constant";
                case ArrivalProcess.Poisson p -> "poisson";
                case ArrivalProcess.Gamma g -> "gamma:" + g.shape();
                case ArrivalProcess.Replay r -> "trace replay of " + r.offsetsSeconds().length;
            };
            return "rate=" + ratePerSecond + "/s " + kind;
        }
    }
}
