package dev.headroom.model;

import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;

/** How open-loop requests are spaced in time at a given mean rate. */
public sealed interface ArrivalProcess {

    /** A seeded generator of inter-arrival gaps, in seconds, at {@code ratePerSecond}. */
    Gaps gaps(double ratePerSecond, long seed);

    /** A stream of inter-arrival gaps. Not thread-safe: one per load generator. */
    interface Gaps {
        double nextSeconds();
    }

    /** Evenly spaced arrivals, 1/rate apart. */
    record Constant() implements ArrivalProcess {
        @Override
        public Gaps gaps(double rate, long seed) {
            double gap = 1.0 / positive(rate);
            return () -> gap;
        }
    }

    /** Poisson arrivals: exponentially distributed gaps with mean 1/rate. */
    record Poisson() implements ArrivalProcess {
        @Override
        public Gaps gaps(double rate, long seed) {
            var exp = new ExponentialDistribution(new Well19937c(seed), 1.0 / positive(rate));
            return exp::sample;
        }
    }

    /**
     * Gamma-distributed gaps with mean 1/rate; {@code shape} &lt; 1 is burstier than Poisson, &gt; 1 more
     * regular (shape 1 is Poisson). This is the "burstiness" knob of vLLM's benchmark.
     */
    record Gamma(double shape) implements ArrivalProcess {
        public Gamma {
            if (!(shape > 0) || Double.isInfinite(shape)) {
                throw new BadInputException("gamma shape must be a positive number, got " + shape);
            }
        }

        @Override
        public Gaps gaps(double rate, long seed) {
            double scale = 1.0 / positive(rate) / shape;
            var gamma = new GammaDistribution(new Well19937c(seed), shape, scale);
            return gamma::sample;
        }
    }

    /**
     * Arrivals at recorded times, e.g. from a production trace: offsets in seconds from the first arrival, in
     * order. The rate passed to {@link #gaps} is ignored; after the last arrival the gaps are infinite.
     */
    record Replay(double[] offsetsSeconds) implements ArrivalProcess {
        public Replay {
            if (offsetsSeconds.length == 0) throw new BadInputException("a replayed trace needs at least one arrival");
            for (int i = 1; i < offsetsSeconds.length; i++) {
                if (!(offsetsSeconds[i] >= offsetsSeconds[i - 1])) {
                    throw new BadInputException("trace timestamps must not go backwards (entry " + i + ")");
                }
            }
            offsetsSeconds = offsetsSeconds.clone();
        }

        @Override
        public Gaps gaps(double rate, long seed) {
            return new Gaps() {
                private int next;

                @Override
                public double nextSeconds() {
                    if (next + 1 >= offsetsSeconds.length) return Double.POSITIVE_INFINITY;
                    double gap = offsetsSeconds[next + 1] - offsetsSeconds[next];
                    next++;
                    return gap;
                }
            };
        }

        /** Mean arrival rate of the trace, per second. */
        public double meanRate() {
            double span = offsetsSeconds[offsetsSeconds.length - 1] - offsetsSeconds[0];
            return span > 0 ? (offsetsSeconds.length - 1) / span : offsetsSeconds.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Replay r && Arrays.equals(offsetsSeconds, r.offsetsSeconds);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(offsetsSeconds);
        }

        @Override
        public String toString() {
            return "Replay[" + offsetsSeconds.length + " arrivals]";
        }
    }

    /** Parses {@code constant}, {@code poisson} or {@code gamma:SHAPE}. */
    static ArrivalProcess parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.equals("constant")) return new Constant();
        if (s.equals("poisson")) return new Poisson();
        if (s.startsWith("gamma:")) {
            try {
                return new Gamma(Double.parseDouble(s.substring(6)));
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new BadInputException(
                "bad arrival process '" + text + "': valid values are constant, poisson, gamma:SHAPE (e.g. gamma:0.5)");
    }

    private static double positive(double rate) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new BadInputException("request rate must be a positive number, got " + rate);
        }
        return rate;
    }
}
