package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;
import java.util.HashSet;
import java.util.List;

/** The traffic to plan for: workload classes over a horizon of months. */
public record Forecast(int horizonMonths, List<WorkloadClass> classes) {
    /** The longest horizon planned. */
    public static final int MAX_MONTHS = 1200;

    public Forecast {
        if (horizonMonths < 1 || horizonMonths > MAX_MONTHS) {
            // A plan is a row per month, class and option: 10^8 months filled gigabytes before it failed.
            throw new BadInputException(
                    "horizon_months must be from 1 to " + MAX_MONTHS + " (100 years), got " + horizonMonths);
        }
        if (classes.isEmpty()) throw new BadInputException("a forecast needs at least one class");
        var names = new HashSet<String>();
        for (WorkloadClass c : classes) {
            if (!names.add(c.name())) throw new BadInputException("class " + c.name() + " is listed twice");
            if (c.traffic().months() > 0 && c.traffic().months() < horizonMonths) {
                throw new BadInputException("class " + c.name() + ": its time series covers "
                        + c.traffic().months() + " month(s), horizon_months is " + horizonMonths);
            }
        }
        classes = List.copyOf(classes);
    }
}
