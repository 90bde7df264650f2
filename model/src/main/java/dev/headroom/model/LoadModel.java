package dev.headroom.model;

import java.util.Locale;

/** The load applied at one load point: closed-loop concurrency or an open-loop arrival rate, never both. */
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

    /** N virtual users; each sends its next request as soon as its previous one ends. */
    record Closed(int concurrency) implements LoadModel {
        public Closed {
            if (concurrency < 1) {
                throw new BadInputException("concurrency must be >= 1, got " + concurrency);
            }
        }

        @Override
        public String label() {
            return "concurrency=" + concurrency;
        }
    }

    /** Requests start at {@code ratePerSecond} on average, spaced by {@code arrivals}, whatever the server does. */
    record Open(double ratePerSecond, ArrivalProcess arrivals) implements LoadModel {
        public Open {
            if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
                throw new BadInputException("request rate must be a positive number, got " + ratePerSecond);
            }
            if (arrivals == null) throw new IllegalArgumentException("an open-loop load needs an arrival process");
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
