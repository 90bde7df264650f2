package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;
import java.util.ArrayList;
import java.util.List;

/** How much of a class arrives, hour by hour, month by month. */
public sealed interface Traffic {
    /** The largest peak planned, in the class's unit: a billion requests (or sessions, or users) a second. */
    double MAX_PEAK = 1e9;

    /** The hours of month {@code month} (0-based): each a rate and how many real hours it stands for. */
    List<Hour> month(int month, double hoursPerMonth);

    /** Months this traffic describes, or 0 when it goes on for any horizon. */
    int months();

    /**
     * One (representative) hour: its load in the class's unit (requests/s, sessions/s or active users) and the hours
     * of the month it stands for.
     */
    record Hour(int dayOfWeek, int hourOfDay, double load, double weight) {}

    /**
     * A parametric forecast: {@code peak} (in the class's unit) in the busiest hour of month 0, shaped by 24 diurnal
     * fractions of the peak and 7 weekly factors, growing by {@code growthPerMonth} (compound); {@code p90Factor}
     * multiplies it for the forecast's pessimistic end. A month is its representative week repeated (730 ÷ 168 times).
     */
    record Parametric(double peak, double[] diurnal, double[] weekly, double growthPerMonth, double p90Factor)
            implements Traffic {
        public Parametric {
            if (!(peak >= 0 && peak <= MAX_PEAK)) {
                // 1e300 req/s overflowed to a plan of 0 replicas at $0.
                throw new BadInputException("the peak must be from 0 to " + (long) MAX_PEAK + ", got " + peak);
            }
            if (diurnal.length != 24)
                throw new BadInputException("diurnal must have 24 values (one per hour), got " + diurnal.length);
            for (double d : diurnal) {
                if (!(d >= 0 && d <= 1))
                    throw new BadInputException("diurnal values are fractions of the peak in [0, 1], got " + d);
            }
            if (weekly.length != 7)
                throw new BadInputException("weekly must have 7 values (Monday first), got " + weekly.length);
            for (double w : weekly) {
                if (!(w >= 0)) throw new BadInputException("weekly factors must be >= 0, got " + w);
            }
            if (!(growthPerMonth > -1))
                throw new BadInputException("growth_per_month must be > -1, got " + growthPerMonth);
            if (!(p90Factor >= 1)) throw new BadInputException("p90_factor must be >= 1, got " + p90Factor);
        }

        @Override
        public List<Hour> month(int month, double hoursPerMonth) {
            double growth = Math.pow(1 + growthPerMonth, month);
            double weight = hoursPerMonth / 168;
            ArrayList<Hour> hours = new ArrayList<>(168);
            for (int d = 0; d < 7; d++) {
                for (int h = 0; h < 24; h++) hours.add(new Hour(d, h, peak * diurnal[h] * weekly[d] * growth, weight));
            }
            return hours;
        }

        @Override
        public int months() {
            return 0;
        }
    }

    /** A measured or forecast time series: one rate per hour, grouped into calendar months (month 0 = the first). */
    record Series(List<List<Hour>> byMonth, double p90Factor) implements Traffic {
        public Series {
            byMonth = List.copyOf(byMonth);
            if (!(p90Factor >= 1)) throw new BadInputException("p90_factor must be >= 1, got " + p90Factor);
        }

        @Override
        public List<Hour> month(int month, double hoursPerMonth) {
            if (month >= byMonth.size()) {
                throw new BadInputException("the time series covers " + byMonth.size() + " month(s); month "
                        + (month + 1) + " was asked for (horizon_months too long)");
            }
            return byMonth.get(month);
        }

        @Override
        public int months() {
            return byMonth.size();
        }
    }

    /** The pessimistic multiplier of this forecast. */
    default double p90() {
        return switch (this) {
            case Parametric p -> p.p90Factor();
            case Series s -> s.p90Factor();
        };
    }
}
