package dev.headroom.sim;

import dev.headroom.model.BadInputException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Which faults to inject and how often. Each request draws at most one fault, from a stream seeded by the plan's
 * seed and the request's arrival number, so a given seed injects the same faults into the same requests.
 *
 * @param rates          probability per request of each fault; their sum must be at most 1
 * @param stall          how long a {@link Fault#STALL} pauses the stream
 * @param slowHeaders    how long {@link Fault#SLOW_HEADERS} delays the response headers
 */
public record FaultPlan(Map<Fault, Double> rates, Duration stall, Duration slowHeaders, long seed) {

    public FaultPlan {
        rates = Map.copyOf(rates);
        double sum = 0;
        for (var e : rates.entrySet()) {
            double r = e.getValue();
            if (!(r >= 0 && r <= 1)) {
                throw new BadInputException("fault rate for " + e.getKey().cliName() + " must be in [0, 1], got " + r);
            }
            sum += r;
        }
        if (sum > 1 + 1e-9) throw new BadInputException("fault rates add up to " + sum + "; at most 1 is allowed");
        if (stall.isNegative() || slowHeaders.isNegative()) throw new BadInputException("fault durations must be >= 0");
    }

    public static FaultPlan none() {
        return new FaultPlan(Map.of(), Duration.ofSeconds(5), Duration.ofSeconds(2), 0);
    }

    /** Every {@code KIND=RATE} given, rates of a kind given twice added up. */
    public static EnumMap<Fault, Double> parseRates(List<String> specs) {
        EnumMap<Fault, Double> rates = new EnumMap<>(Fault.class);
        for (String spec : specs) {
            Map.Entry<Fault, Double> e = parseRate(spec);
            rates.merge(e.getKey(), e.getValue(), Double::sum);
        }
        return rates;
    }

    /** Parses {@code KIND=RATE}, e.g. {@code reset=0.01}. */
    public static Map.Entry<Fault, Double> parseRate(String spec) {
        int eq = spec.indexOf('=');
        if (eq < 0) {
            throw new BadInputException("bad fault '" + spec + "': expected KIND=RATE, e.g. reset=0.01");
        }
        Fault kind = Fault.parse(spec.substring(0, eq));
        try {
            return Map.entry(kind, Double.parseDouble(spec.substring(eq + 1)));
        } catch (NumberFormatException e) {
            throw new BadInputException("bad fault rate in '" + spec + "': expected a number in [0, 1]");
        }
    }

    /** The fault for request number {@code n} (0-based arrival order), or null for none. */
    public Fault draw(long n) {
        if (rates.isEmpty()) return null;
        double u = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n).nextDouble();
        double acc = 0;
        for (Fault f : Fault.values()) {
            acc += rates.getOrDefault(f, 0.0);
            if (u < acc) return f;
        }
        return null;
    }

    /** Where a mid-stream fault strikes: before output token {@code k}, with 1 <= k < outputTokens when possible. */
    public int position(long n, int outputTokens) {
        if (outputTokens < 2) return 0;
        return 1 + new SplittableRandom(seed * 0xC2B2AE3D27D4EB4FL + n).nextInt(outputTokens - 1);
    }
}
