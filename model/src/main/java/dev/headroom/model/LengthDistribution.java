package dev.headroom.model;

import java.util.Locale;
import java.util.random.RandomGenerator;

/** A distribution of token counts (prompt or output length); every sample is at least 1. */
public sealed interface LengthDistribution {

    /** Draws one length, never below 1. */
    int sample(RandomGenerator rng);

    /** The distribution's mean before clamping to 1. */
    double mean();

    /** Every sample is exactly {@code value}. */
    record Fixed(int value) implements LengthDistribution {
        public Fixed {
            require(value >= 1, "fixed length must be >= 1, got " + value);
        }

        @Override
        public int sample(RandomGenerator rng) {
            return value;
        }

        @Override
        public double mean() {
            return value;
        }
    }

    /** Gaussian with the given mean and standard deviation, rounded. */
    record Normal(double mean, double stddev) implements LengthDistribution {
        public Normal {
            require(mean >= 1, "normal mean must be >= 1, got " + mean);
            require(stddev >= 0, "normal stddev must be >= 0, got " + stddev);
        }

        @Override
        public int sample(RandomGenerator rng) {
            return clamp(Math.round(mean + stddev * rng.nextGaussian()));
        }
    }

    /** Uniform over the integers {@code [min, max]}. */
    record Uniform(int min, int max) implements LengthDistribution {
        public Uniform {
            require(min >= 1, "uniform min must be >= 1, got " + min);
            require(max >= min, "uniform max must be >= min (" + min + "), got " + max);
        }

        @Override
        public int sample(RandomGenerator rng) {
            return rng.nextInt(min, max + 1);
        }

        @Override
        public double mean() {
            return (min + max) / 2.0;
        }
    }

    /** Log-normal parameterised by the mean and standard deviation of the lengths themselves. */
    record LogNormal(double mean, double stddev) implements LengthDistribution {
        public LogNormal {
            require(mean >= 1, "lognormal mean must be >= 1, got " + mean);
            require(stddev > 0, "lognormal stddev must be > 0, got " + stddev);
        }

        @Override
        public int sample(RandomGenerator rng) {
            // Moment matching: sigma^2 = ln(1 + (sd/mean)^2), mu = ln(mean) - sigma^2/2.
            double sigma2 = Math.log1p((stddev / mean) * (stddev / mean));
            double mu = Math.log(mean) - sigma2 / 2;
            return clamp(Math.round(Math.exp(mu + Math.sqrt(sigma2) * rng.nextGaussian())));
        }
    }

    /** The distribution as {@link #parse} reads it: {@code fixed:256}, {@code normal:512.0,64.0}. */
    default String text() {
        return switch (this) {
            case Fixed f -> "fixed:" + f.value();
            case Normal n -> "normal:" + n.mean() + "," + n.stddev();
            case Uniform u -> "uniform:" + u.min() + "," + u.max();
            case LogNormal l -> "lognormal:" + l.mean() + "," + l.stddev();
        };
    }

    /**
     * Parses {@code fixed:N}, {@code normal:MEAN,SD}, {@code uniform:MIN,MAX}, {@code lognormal:MEAN,SD},
     * or a bare number (fixed).
     */
    static LengthDistribution parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.matches("\\d+")) return new Fixed(Integer.parseInt(s));
            int colon = s.indexOf(':');
            if (colon < 0) throw bad(text);
            String kind = s.substring(0, colon);
            String[] args = s.substring(colon + 1).split(",");
            return switch (kind) {
                case "fixed" -> new Fixed(Integer.parseInt(args[0].trim()));
                case "normal" -> new Normal(num(args, 0), num(args, 1));
                case "uniform" -> new Uniform((int) num(args, 0), (int) num(args, 1));
                case "lognormal" -> new LogNormal(num(args, 0), num(args, 1));
                default -> throw bad(text);
            };
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw bad(text);
        }
    }

    private static double num(String[] args, int i) {
        return Double.parseDouble(args[i].trim());
    }

    private static IllegalArgumentException bad(String text) {
        return new BadInputException("bad length distribution '" + text
                + "': valid forms are N, fixed:N, normal:MEAN,SD, uniform:MIN,MAX, lognormal:MEAN,SD");
    }

    private static int clamp(long v) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, v));
    }

    private static void require(boolean ok, String message) {
        if (!ok) throw new BadInputException(message);
    }
}
