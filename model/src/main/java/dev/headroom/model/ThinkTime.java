package dev.headroom.model;

import java.util.Locale;
import java.util.random.RandomGenerator;

/** How long a user waits after an answer before the next turn: fixed, exponential, uniform or log-normal. */
public sealed interface ThinkTime {
    /** No wait. */
    ThinkTime NONE = new Fixed(0);

    /** One wait, in seconds (>= 0). */
    double sampleSeconds(RandomGenerator rng);

    /** The mean wait, in seconds. */
    double meanSeconds();

    /** The form it is parsed from. */
    String text();

    /** Always {@code seconds}. */
    record Fixed(double seconds) implements ThinkTime {
        public Fixed {
            require(seconds >= 0 && Double.isFinite(seconds), "a think time must be >= 0 s, got " + seconds);
        }

        @Override
        public double sampleSeconds(RandomGenerator rng) {
            return seconds;
        }

        @Override
        public double meanSeconds() {
            return seconds;
        }

        @Override
        public String text() {
            return ThinkTime.seconds(seconds);
        }
    }

    /** Exponential with {@code mean} seconds: a user who is as likely to come back at any moment. */
    record Exponential(double mean) implements ThinkTime {
        public Exponential {
            require(mean > 0 && Double.isFinite(mean), "exp: mean must be > 0 s, got " + mean);
        }

        @Override
        public double sampleSeconds(RandomGenerator rng) {
            return -mean * Math.log(1 - rng.nextDouble());
        }

        @Override
        public double meanSeconds() {
            return mean;
        }

        @Override
        public String text() {
            return "exp:" + seconds(mean);
        }
    }

    /** Uniform between {@code min} and {@code max} seconds. */
    record Uniform(double min, double max) implements ThinkTime {
        public Uniform {
            require(
                    min >= 0 && max >= min && Double.isFinite(max),
                    "uniform: need 0 <= MIN <= MAX, got " + min + ", " + max);
        }

        @Override
        public double sampleSeconds(RandomGenerator rng) {
            return min + (max - min) * rng.nextDouble();
        }

        @Override
        public double meanSeconds() {
            return (min + max) / 2;
        }

        @Override
        public String text() {
            return "uniform:" + seconds(min) + "," + seconds(max);
        }
    }

    /** Log-normal with this mean and standard deviation, in seconds: most users quick, a few who wander off. */
    record LogNormal(double mean, double stddev) implements ThinkTime {
        public LogNormal {
            require(
                    mean > 0 && stddev > 0 && Double.isFinite(mean) && Double.isFinite(stddev),
                    "lognormal: mean and sd must be > 0 s, got " + mean + ", " + stddev);
        }

        @Override
        public double sampleSeconds(RandomGenerator rng) {
            double s2 = Math.log(1 + stddev * stddev / (mean * mean));
            return Math.exp(Math.log(mean) - s2 / 2 + Math.sqrt(s2) * rng.nextGaussian());
        }

        @Override
        public double meanSeconds() {
            return mean;
        }

        @Override
        public String text() {
            return "lognormal:" + seconds(mean) + "," + seconds(stddev);
        }
    }

    /**
     * Parses {@code DURATION} (fixed), {@code exp:MEAN}, {@code uniform:MIN,MAX} or {@code lognormal:MEAN,SD}, each a
     * duration such as {@code 2s}, {@code 500ms} or {@code 1m}.
     */
    static ThinkTime parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        int colon = t.indexOf(':');
        String kind = colon < 0 ? "" : t.substring(0, colon);
        String[] args = (colon < 0 ? t : t.substring(colon + 1)).split(",", -1);
        return switch (kind) {
            case "" -> {
                one(text, args);
                yield new Fixed(duration(text, args[0]));
            }
            case "exp" -> {
                one(text, args);
                yield new Exponential(duration(text, args[0]));
            }
            case "uniform" -> {
                two(text, args);
                yield new Uniform(duration(text, args[0]), duration(text, args[1]));
            }
            case "lognormal" -> {
                two(text, args);
                yield new LogNormal(duration(text, args[0]), duration(text, args[1]));
            }
            default -> throw bad(text);
        };
    }

    private static void one(String text, String[] args) {
        if (args.length != 1) throw bad(text);
    }

    private static void two(String text, String[] args) {
        if (args.length != 2) throw bad(text);
    }

    private static double duration(String text, String s) {
        String v = s.trim();
        try {
            if (v.endsWith("ms")) return Double.parseDouble(v.substring(0, v.length() - 2)) / 1e3;
            if (v.endsWith("s")) return Double.parseDouble(v.substring(0, v.length() - 1));
            if (v.endsWith("m")) return Double.parseDouble(v.substring(0, v.length() - 1)) * 60;
            if (v.endsWith("h")) return Double.parseDouble(v.substring(0, v.length() - 1)) * 3600;
        } catch (NumberFormatException e) {
            throw bad(text);
        }
        throw bad(text);
    }

    private static BadInputException bad(String text) {
        return new BadInputException("bad {think-time} '" + text + "': valid forms are a duration (2s, 500ms, 1m), "
                + "exp:MEAN, uniform:MIN,MAX or lognormal:MEAN,SD");
    }

    private static void require(boolean ok, String message) {
        if (!ok) throw new BadInputException("{think-time}: " + message);
    }

    private static String seconds(double s) {
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + "s";
    }
}
