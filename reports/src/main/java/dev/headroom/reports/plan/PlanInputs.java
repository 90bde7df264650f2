package dev.headroom.reports.plan;

import dev.headroom.model.BadInputException;
import dev.headroom.model.Nearest;
import dev.headroom.model.Slo;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.EngineKnobs;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.SessionShape;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.WorkloadClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Reads the forecast, catalog, policy and capacities YAML files of {@code plan} and {@code compare}, validated. */
public final class PlanInputs {
    private PlanInputs() {}

    public static Forecast forecast(Path file) {
        Yaml.Node root = Yaml.read(file);
        root.keys("horizon_months", "classes");
        int horizon = root.integer("horizon_months", 12);
        List<WorkloadClass> classes = new ArrayList<>();
        for (Yaml.Node c : root.list("classes")) {
            c.keys("name", "unit", "isl", "osl", "slo", "traffic", "session");
            String name = c.text("name");
            Yaml.Node t = c.get("traffic");
            LoadUnit unit;
            try {
                unit = LoadUnit.parse(c.text("unit", "requests"));
            } catch (BadInputException e) {
                throw c.bad("unit", e.getMessage());
            }
            try {
                if (unit.sessions()) {
                    if (c.has("isl") || c.has("osl")) {
                        throw c.error("is in " + unit.wireName() + ": give its tokens in a session block "
                                + "(turns, turn_isl, turn_osl, system_prompt_tokens), not isl/osl");
                    }
                    if (!c.has("session")) {
                        throw c.error("is in " + unit.wireName() + " and needs a session block: {turns, turn_isl, "
                                + "turn_osl, system_prompt_tokens}");
                    }
                    Yaml.Node s = c.get("session");
                    s.keys("turns", "turn_isl", "turn_osl", "system_prompt_tokens", "think_time_s");
                    SessionShape shape;
                    if (!s.has("turns")) throw s.bad("turns", "is missing");
                    try {
                        shape = new SessionShape(
                                s.integer("turns", 0),
                                s.number("turn_isl"),
                                s.number("turn_osl"),
                                s.number("system_prompt_tokens", 0),
                                s.number("think_time_s", 0));
                    } catch (BadInputException e) {
                        if (e.getMessage().startsWith(file.toString())) throw e;
                        throw s.wrap(e);
                    }
                    classes.add(WorkloadClass.ofSessions(name, shape, unit, slo(c), traffic(t, name, unit)));
                } else {
                    if (c.has("session")) throw c.error("has a session block: give it unit: sessions or unit: users");
                    classes.add(
                            new WorkloadClass(name, c.number("isl"), c.number("osl"), slo(c), traffic(t, name, unit)));
                }
            } catch (BadInputException e) {
                if (e.getMessage().startsWith(file.toString())) throw e;
                throw c.wrap(e);
            }
        }
        try {
            return new Forecast(horizon, classes);
        } catch (BadInputException e) {
            throw root.wrap(e);
        }
    }

    /**
     * A class's SLO text, each of its parts (split at commas and "and", as the plan reads them) parsed now: a bad one
     * ({@code ttft:p95‹}) is refused with the class's place in the file, not stored in plan.json.
     */
    private static String slo(Yaml.Node c) {
        String text = c.texts("slo", "");
        for (String part : text.split(",|\\band\\b")) {
            if (part.isBlank()) continue;
            try {
                Slo.parse(part.strip());
            } catch (IllegalArgumentException e) {
                throw c.wrap(new BadInputException("slo: " + e.getMessage()));
            }
        }
        return text;
    }

    /** The class's traffic in its unit: {@code peak_rps}, {@code peak_sessions_per_s} or {@code peak_users}. */
    private static Traffic traffic(Yaml.Node t, String className, LoadUnit unit) {
        List<String> keys = new ArrayList<>(List.of("diurnal", "weekly", "growth_per_month", "p90_factor", "csv"));
        for (LoadUnit u : LoadUnit.values()) keys.add("peak_" + u.key());
        t.keys(keys.toArray(String[]::new));
        double p90 = t.number("p90_factor", 1);
        String peak = "peak_" + unit.key();
        for (LoadUnit other : LoadUnit.values()) {
            if (other != unit && t.has("peak_" + other.key())) {
                throw t.bad(
                        "peak_" + other.key(),
                        "class " + className + " is in " + unit.wireName() + ": give " + peak
                                + (unit == LoadUnit.REQUESTS
                                        ? ""
                                        : " (or set the class's unit: " + other.wireName() + ")"));
            }
        }
        if (t.has("csv")) {
            Path csv = t.file().resolveSibling(t.text("csv"));
            return new Traffic.Series(series(csv, className), p90);
        }
        double[] weekly = t.has("weekly") ? t.numbers("weekly") : new double[] {1, 1, 1, 1, 1, 1, 1};
        if (!(t.number(peak) >= 0)) throw t.bad(peak, "must be >= 0, got " + t.number(peak));
        try {
            return new Traffic.Parametric(
                    t.number(peak), t.numbers("diurnal"), weekly, t.number("growth_per_month", 0), p90);
        } catch (BadInputException e) {
            if (e.getMessage().startsWith(t.file().toString())) throw e;
            throw t.wrap(e);
        }
    }

    /** {@code timestamp,class,rps} rows of one class, one row per hour, grouped into calendar months. */
    public static List<List<Traffic.Hour>> series(Path csv, String className) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv);
        } catch (IOException e) {
            throw new BadInputException(csv + ": cannot read the traffic time series: " + e.getMessage());
        }
        TreeMap<YearMonth, List<Traffic.Hour>> months = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || (i == 0 && line.toLowerCase(Locale.ROOT).startsWith("timestamp"))) continue;
            String[] f = line.split(",");
            if (f.length != 3)
                throw new BadInputException(
                        csv + " line " + (i + 1) + ": expected timestamp,class,rps, got '" + line + "'");
            if (!f[1].strip().equals(className)) continue;
            LocalDateTime at = timestamp(f[0].strip(), csv, i + 1);
            double rps;
            try {
                rps = Double.parseDouble(f[2].strip());
            } catch (NumberFormatException e) {
                throw new BadInputException(csv + " line " + (i + 1) + ": rps '" + f[2].strip() + "' is not a number");
            }
            if (!(rps >= 0)) throw new BadInputException(csv + " line " + (i + 1) + ": rps must be >= 0, got " + rps);
            months.computeIfAbsent(YearMonth.from(at), k -> new ArrayList<>())
                    .add(new Traffic.Hour(at.getDayOfWeek().getValue() - 1, at.getHour(), rps, 1));
        }
        if (months.isEmpty()) throw new BadInputException(csv + ": no rows for class " + className);
        // Months without rows between the first and last are a gap in the data, not zero traffic.
        YearMonth first = months.firstKey();
        List<List<Traffic.Hour>> out = new ArrayList<>();
        for (YearMonth m = first; !m.isAfter(months.lastKey()); m = m.plusMonths(1)) {
            if (!months.containsKey(m))
                throw new BadInputException(csv + ": no rows for class " + className + " in " + m);
            out.add(months.get(m));
        }
        return out;
    }

    private static LocalDateTime timestamp(String s, Path csv, int line) {
        try {
            return OffsetDateTime.parse(s).toLocalDateTime();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(s);
            } catch (DateTimeParseException e) {
                throw new BadInputException(csv + " line " + line + ": timestamp '" + s
                        + "' is not ISO-8601 (e.g. 2026-01-05T14:00:00Z or 2026-01-05T14:00)");
            }
        }
    }

    /**
     * The catalog's options; an option naming a hardware profile takes its list price from {@code listPrices}
     * (on-demand dollars per GPU-hour by profile name) as the on-demand default.
     */
    public static List<CatalogOption> catalog(Path file, Map<String, Double> listPrices) {
        Yaml.Node root = Yaml.read(file);
        root.keys("options");
        List<CatalogOption> options = new ArrayList<>();
        for (Yaml.Node o : root.list("options")) {
            o.keys(
                    "name",
                    "hardware",
                    "model",
                    "gpus_per_replica",
                    "price_per_gpu_hour",
                    "prefill_decode",
                    "max_num_seqs",
                    "max_num_batched_tokens",
                    "kv_cache_dtype",
                    "weight_dtype");
            String name = o.text("name");
            Map<PricingTier, Double> prices = new EnumMap<>(PricingTier.class);
            if (o.has("hardware")) {
                String hw = o.text("hardware");
                Double price = listPrices.get(hw);
                if (price == null) {
                    throw o.bad(
                            "hardware",
                            "'" + hw + "' is not a hardware profile with a list price; known: " + listPrices.keySet());
                }
                prices.put(PricingTier.ON_DEMAND, price);
            }
            if (o.has("price_per_gpu_hour")) {
                Yaml.Node p = o.get("price_per_gpu_hour");
                var fields = p.json.fieldNames();
                while (fields.hasNext()) {
                    String tier = fields.next();
                    PricingTier t;
                    try {
                        t = PricingTier.parse(tier);
                    } catch (BadInputException e) {
                        List<String> tiers = Arrays.stream(PricingTier.values())
                                .map(PricingTier::wireName)
                                .toList();
                        throw p.bad(
                                tier,
                                "is not a pricing tier" + Nearest.didYouMean(tier, tiers, "'") + " (valid: "
                                        + String.join(", ", tiers) + ")");
                    }
                    prices.put(t, p.number(tier));
                }
            }
            if (prices.isEmpty()) throw o.error("needs price_per_gpu_hour or a hardware profile that carries a price");
            try {
                options.add(new CatalogOption(
                        name,
                        o.integer("gpus_per_replica", 1),
                        prices,
                        o.has("hardware") ? o.text("hardware") : null,
                        o.has("model") ? o.text("model") : null,
                        o.has("prefill_decode") ? o.text("prefill_decode") : null,
                        new EngineKnobs(
                                o.integer("max_num_seqs", 0),
                                o.integer("max_num_batched_tokens", 0),
                                o.has("kv_cache_dtype") ? o.text("kv_cache_dtype") : null,
                                o.has("weight_dtype") ? o.text("weight_dtype") : null)));
            } catch (BadInputException e) {
                throw o.wrap(e);
            }
        }
        if (options.stream().map(CatalogOption::name).distinct().count() != options.size()) {
            throw root.error("lists an option name twice");
        }
        return options;
    }

    /** The policy file, or the defaults (utilization 0.8, redundancy 1, static, on_demand, 730 h). */
    public static Policy policy(Path file) {
        if (file == null) return Policy.DEFAULT;
        Yaml.Node root = Yaml.read(file);
        root.keys("utilization_target", "redundancy", "scaling", "min_replicas", "pricing", "hours_per_month");
        String scaling = root.text("scaling", "static");
        if (!scaling.equals("static") && !scaling.equals("hourly"))
            throw root.bad("scaling", "'" + scaling + "' must be static or hourly");
        PricingTier tier;
        try {
            tier = PricingTier.parse(root.text("pricing", "on_demand"));
        } catch (BadInputException e) {
            throw root.wrap(e);
        }
        try {
            return new Policy(
                    root.number("utilization_target", 0.8),
                    root.integer("redundancy", 1),
                    scaling.equals("hourly"),
                    root.integer("min_replicas", 0),
                    tier,
                    root.number("hours_per_month", 730));
        } catch (BadInputException e) {
            throw root.wrap(e);
        }
    }

    /** A capacities file: a plain list of capacities, or the list under {@code capacities:}. */
    public static List<Capacity> capacities(Path file) {
        Yaml.Node root = Yaml.readAny(file);
        List<Capacity> out = new ArrayList<>();
        if (root.json.isObject()) root.keys("capacities");
        // A plain list of capacities, or the list under `capacities:`.
        for (Yaml.Node c : root.json.isArray() ? root.items() : root.list("capacities")) {
            c.keys(
                    "option",
                    "class",
                    "max_rps",
                    "max_concurrency",
                    "mean_e2e_s",
                    "max_users",
                    "max_sessions_per_s",
                    "session_s",
                    "ci_low",
                    "ci_high",
                    "prefill_share");
            String option = c.text("option"), cls = c.text("class");
            try {
                if (c.has("max_rps")) {
                    double rps = c.number("max_rps");
                    out.add(new Capacity(
                            option,
                            cls,
                            rps,
                            c.number("ci_low", rps),
                            c.number("ci_high", rps),
                            false,
                            c.number("prefill_share", Double.NaN),
                            file.toString()));
                } else if (c.has("max_concurrency")) {
                    double e2e = c.number("mean_e2e_s");
                    double rps = Capacity.littlesLaw(c.number("max_concurrency"), e2e);
                    double lo = c.has("ci_low") ? Capacity.littlesLaw(c.number("ci_low"), e2e) : rps;
                    double hi = c.has("ci_high") ? Capacity.littlesLaw(c.number("ci_high"), e2e) : rps;
                    out.add(new Capacity(
                            option, cls, rps, lo, hi, true, c.number("prefill_share", Double.NaN), file.toString()));
                } else if (c.has("max_users") || c.has("max_sessions_per_s")) {
                    LoadUnit unit = c.has("max_users") ? LoadUnit.USERS : LoadUnit.SESSIONS;
                    double max = c.number("max_" + unit.key());
                    out.add(new Capacity(
                            option,
                            cls,
                            max,
                            c.number("ci_low", max),
                            c.number("ci_high", max),
                            false,
                            c.number("prefill_share", Double.NaN),
                            file.toString(),
                            Double.NaN,
                            unit,
                            c.number("session_s", Double.NaN)));
                } else {
                    throw c.error("needs max_rps (with ci_low, ci_high), max_concurrency with mean_e2e_s, or for a "
                            + "class in sessions max_users or max_sessions_per_s (with session_s, the mean session "
                            + "duration)");
                }
            } catch (BadInputException e) {
                if (e.getMessage().startsWith(file.toString())) throw e;
                throw c.wrap(e);
            }
        }
        return out;
    }
}
