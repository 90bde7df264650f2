package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/**
 * One kind of traffic in the forecast: its request shape, the SLO it must meet, and how much of it arrives.
 *
 * @param isl     mean input tokens per request
 * @param osl     mean output tokens per request
 * @param slo     the SLO its capacities were measured under (text, for the report)
 */
public record WorkloadClass(String name, double isl, double osl, String slo, Traffic traffic) {
    public WorkloadClass {
        if (name == null || name.isBlank()) throw new BadInputException("a forecast class needs a name");
        if (!(isl >= 0) || !(osl > 0)) {
            throw new BadInputException("class " + name + ": isl must be >= 0 and osl > 0, got " + isl + " and " + osl);
        }
    }

    public double tokensPerRequest() {
        return isl + osl;
    }
}
