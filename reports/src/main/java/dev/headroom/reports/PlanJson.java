package dev.headroom.reports;

import static dev.headroom.reports.JsonNumbers.num;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.Range;
import dev.headroom.model.plan.Verification;
import dev.headroom.model.plan.WorkloadClass;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code plan.json} (schema {@value #SCHEMA}) and {@code compare.json} (schema {@value #COMPARE_SCHEMA}). */
public final class PlanJson {
    public static final String SCHEMA = "headroom.plan/v1";
    public static final String COMPARE_SCHEMA = "headroom.compare/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PlanJson() {}

    /**
     * A plan.json or compare.json read back, as the report shows it: the policy, classes, options, every month ×
     * class × option row, the totals, the simulator checks, and for a comparison its ranking and mix (else empty and
     * null).
     */
    public record Stored(
            String toolVersion,
            String createdAt,
            Policy policy,
            int horizonMonths,
            List<StoredClass> classes,
            List<String> options,
            List<PlanRow> months,
            List<Plan.OptionTotal> totals,
            List<StoredCapacity> capacities,
            List<StoredCheck> verify,
            List<Ranked> ranking,
            StoredMix mix) {}

    /** A forecast class as plan.json states it. */
    public record StoredClass(String name, double isl, double osl, String slo, double p90Factor, LoadUnit unit) {}

    /**
     * A capacity as plan.json and compare.json state it; {@code modelled}: searched on a model, not measured, its
     * interval widened by {@code modelError} (NaN when measured); {@code source}: empty where the file does not say.
     */
    public record StoredCapacity(
            String workloadClass,
            String option,
            LoadUnit unit,
            double max,
            double ciLow,
            double ciHigh,
            boolean modelled,
            double modelError,
            String source) {}

    /**
     * One simulator check of {@link Verification}, as written.
     *
     * @param month    1-based
     * @param smallest the smallest passing fleet found; null when none passed (or the file predates the search)
     */
    public record StoredCheck(
            String workloadClass,
            String option,
            int month,
            double rps,
            StoredFleet planned,
            StoredFleet lean,
            StoredFleet smallest,
            int searchedUpTo,
            StoredSplit split) {}

    /** What one checked fleet achieved, SLO by SLO. */
    public record StoredFleet(int replicas, double sloAttainment, boolean sloPass, List<StoredSlo> slo) {}

    /** One SLO's observed value on a checked fleet (a rate as a fraction, a latency in ms). */
    public record StoredSlo(String slo, double observed, boolean pass) {}

    /** The planned fleet over the smallest passing one: capacity estimate's error + headroom + redundancy. */
    public record StoredSplit(int capacityEstimate, int headroom, int redundancy) {}

    /** One option of a comparison's ranking, cheapest first. */
    public record Ranked(
            int rank,
            String option,
            boolean cheapest,
            List<StoredCapacity> capacities,
            Range peakReplicas,
            double lastMonthCost,
            Range horizonCost,
            double dollarsPerMtokAtCapacity,
            double dollarsPerMtokAsPlanned) {}

    /** A comparison's cheapest mix over the horizon. */
    public record StoredMix(double cost, String bestSingleOption, double bestSingleCost, double saving) {}

    /** Reads a plan.json or a compare.json; the error names the file. */
    public static Stored read(Path file) {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        boolean compare = COMPARE_SCHEMA.equals(root.path("schema").asText());
        JsonNode plan = compare ? root.path("plan") : root;
        JsonNode p = plan.path("policy");
        Policy policy;
        try {
            policy = new Policy(
                    p.path("utilization_target").asDouble(),
                    p.path("redundancy").asInt(),
                    p.path("scaling").asText().equals("hourly"),
                    p.path("min_replicas").asInt(),
                    PricingTier.parse(p.path("pricing").asText()),
                    p.path("hours_per_month").asDouble());
        } catch (IllegalArgumentException e) {
            throw new BadInputException(file + ": policy: " + e.getMessage(), e);
        }
        List<StoredClass> classes = new ArrayList<>();
        for (JsonNode c : plan.path("classes")) {
            LoadUnit unit = unit(c, file);
            classes.add(new StoredClass(
                    c.path("name").asText(),
                    num(c.path(unit.sessions() ? "input_tokens_per_session" : "isl")),
                    num(c.path(unit.sessions() ? "output_tokens_per_session" : "osl")),
                    c.path("slo").asText(),
                    num(c.path("p90_factor")),
                    unit));
        }
        List<String> options = new ArrayList<>();
        plan.path("options").forEach(o -> options.add(o.path("name").asText()));
        List<PlanRow> months = new ArrayList<>();
        for (JsonNode r : plan.path("months")) {
            JsonNode d = r.path("dollars_per_mtok");
            months.add(new PlanRow(
                    r.path("month").asInt() - 1,
                    r.path("class").asText(),
                    r.path("option").asText(),
                    range(r.path("replicas")),
                    num(r.path("mean_replicas")),
                    num(r.path("gpu_hours")),
                    range(r.path("cost")),
                    num(r.at("/tokens/input")),
                    num(r.at("/tokens/output")),
                    num(d.path("at_capacity")),
                    num(d.path("as_planned")),
                    num(d.path("output_only")),
                    num(d.path("input")),
                    num(d.path("output")),
                    num(r.path("utilization"))));
        }
        List<Plan.OptionTotal> totals = new ArrayList<>();
        for (JsonNode t : plan.path("totals")) {
            totals.add(new Plan.OptionTotal(
                    t.path("option").asText(),
                    range(t.path("peak_replicas")),
                    num(t.path("gpu_hours")),
                    range(t.path("cost")),
                    num(t.at("/tokens/input")),
                    num(t.at("/tokens/output")),
                    num(t.at("/dollars_per_mtok/as_planned")),
                    num(t.at("/dollars_per_mtok/output_only"))));
        }
        List<StoredCapacity> capacities = new ArrayList<>();
        for (JsonNode k : plan.path("capacities")) capacities.add(capacity(k, file));
        List<StoredCheck> verify = new ArrayList<>();
        for (JsonNode v : plan.path("verify")) {
            verify.add(new StoredCheck(
                    v.path("class").asText(),
                    v.path("option").asText(),
                    v.path("month").asInt(),
                    num(v.path("rps")),
                    fleet(v.path("planned")),
                    fleet(v.path("lean")),
                    v.path("smallest").isObject() ? fleet(v.path("smallest")) : null,
                    v.path("searched_up_to").asInt(),
                    v.path("planned_over_smallest").has("headroom")
                            ? new StoredSplit(
                                    v.at("/planned_over_smallest/capacity_estimate")
                                            .asInt(),
                                    v.at("/planned_over_smallest/headroom").asInt(),
                                    v.at("/planned_over_smallest/redundancy").asInt())
                            : null));
        }
        List<Ranked> ranking = new ArrayList<>();
        for (JsonNode r : root.path("ranking")) {
            List<StoredCapacity> caps = new ArrayList<>();
            for (JsonNode k : r.path("capacity")) caps.add(capacity(k, file));
            ranking.add(new Ranked(
                    r.path("rank").asInt(),
                    r.path("option").asText(),
                    r.path("cheapest").asBoolean(),
                    caps,
                    range(r.path("peak_replicas")),
                    num(r.path("last_month_cost")),
                    range(r.path("horizon_cost")),
                    num(r.at("/dollars_per_mtok/at_capacity")),
                    num(r.at("/dollars_per_mtok/as_planned"))));
        }
        JsonNode mix = root.path("mix");
        return new Stored(
                plan.at("/tool/version").asText(),
                plan.path("created_at").asText(),
                policy,
                plan.path("horizon_months").asInt(),
                classes,
                options,
                months,
                totals,
                capacities,
                verify,
                ranking,
                mix.isObject()
                        ? new StoredMix(
                                num(mix.path("cost")),
                                mix.path("best_single_option").asText(),
                                num(mix.path("best_single_cost")),
                                num(mix.path("saving")))
                        : null);
    }

    /** A class's or capacity's unit; requests where the file predates units. */
    private static LoadUnit unit(JsonNode n, Path file) {
        try {
            return LoadUnit.parse(n.path("unit").asText("requests"));
        } catch (BadInputException e) {
            throw new BadInputException(file + ": " + e.getMessage(), e);
        }
    }

    private static StoredCapacity capacity(JsonNode k, Path file) {
        LoadUnit unit = unit(k, file);
        return new StoredCapacity(
                k.path("class").asText(),
                k.path("option").asText(),
                unit,
                num(k.path("max_" + unit.key())),
                num(k.path("ci_low")),
                num(k.path("ci_high")),
                k.path("modelled").asBoolean(false),
                num(k.path("model_error")),
                k.path("source").asText(""));
    }

    private static StoredFleet fleet(JsonNode f) {
        List<StoredSlo> slo = new ArrayList<>();
        for (JsonNode x : f.path("slo"))
            slo.add(new StoredSlo(
                    x.path("slo").asText(),
                    num(x.path("observed")),
                    x.path("pass").asBoolean()));
        return new StoredFleet(
                f.path("replicas").asInt(),
                num(f.path("slo_attainment")),
                f.path("slo_pass").asBoolean(),
                List.copyOf(slo));
    }

    private static Range range(JsonNode r) {
        return new Range(num(r.path("point")), num(r.path("low")), num(r.path("high")));
    }

    public static String write(Plan plan, String toolVersion, String createdAt) {
        return write(plan, List.of(), toolVersion, createdAt);
    }

    /** A plan with its simulator checks ({@code verify}: empty when none were run). */
    public static String write(Plan plan, List<Verification> checks, String toolVersion, String createdAt) {
        ObjectNode root = tree(plan, toolVersion, createdAt);
        ArrayNode verify = root.putArray("verify");
        for (Verification v : checks) {
            ObjectNode o = verify.addObject();
            o.put("class", v.workloadClass());
            o.put("option", v.option());
            o.put("month", v.month() + 1);
            JsonNumbers.put(o, "rps", v.rps(), 4);
            JsonNumbers.put(o, "simulated_s", v.seconds(), 1);
            fleet(o.putObject("planned"), v.replicas(), v.planned());
            fleet(o.putObject("lean"), v.leanReplicas(), v.lean());
            if (v.found()) fleet(o.putObject("smallest"), v.smallestReplicas(), v.smallest());
            else o.putNull("smallest");
            o.put("searched_up_to", v.searchedUpTo());
            ObjectNode split = o.putObject("planned_over_smallest");
            if (v.found()) {
                split.put("capacity_estimate", v.estimateReplicas());
                split.put("headroom", v.headroomReplicas());
                split.put("redundancy", v.redundancyReplicas());
            }
            ArrayNode trials = o.putArray("trials");
            for (Verification.Trial t : v.trials()) {
                ObjectNode x = trials.addObject();
                x.put("replicas", t.replicas());
                x.put("slo_pass", t.pass());
                JsonNumbers.put(x, "slo_attainment", t.sloAttainment(), 4);
            }
        }
        return text(root);
    }

    private static void fleet(ObjectNode o, int replicas, Summary s) {
        o.put("replicas", replicas);
        JsonNumbers.put(o, "slo_attainment", s.sloAttainment(), 4);
        o.put("slo_pass", s.sloPass());
        ArrayNode slo = o.putArray("slo");
        for (Summary.SloResult r : s.slo()) {
            ObjectNode x = slo.addObject();
            x.put("slo", r.slo().text());
            JsonNumbers.put(x, "observed", r.observed(), 4);
            x.put("pass", r.pass());
        }
        JsonNumbers.put(o, "requests_per_s", s.requestsPerS(), 4);
    }

    /** One line per check for the console. */
    public static String verifyLines(List<Verification> checks) {
        StringBuilder b = new StringBuilder();
        for (Verification v : checks) {
            b.append(String.format(
                    Locale.ROOT,
                    "verify %s@%s, month %d, %s req/s for %s s simulated: planned %d replicas %s; "
                            + "without headroom and redundancy %d replicas %s; %s%n",
                    v.workloadClass(),
                    v.option(),
                    v.month() + 1,
                    ConsoleTable.n(v.rps()),
                    ConsoleTable.n(v.seconds()),
                    v.replicas(),
                    verdict(v.planned()),
                    v.leanReplicas(),
                    verdict(v.lean()),
                    smallest(v)));
            String why = attainmentNote(v);
            if (!why.isEmpty()) b.append("  ").append(why).append(System.lineSeparator());
        }
        return b.toString();
    }

    /**
     * Why a fleet can PASS with few requests meeting every objective: PASS is each SLO's statistic over all requests
     * (as probe and search judge it), attainment the share of requests meeting every SLO on their own. Said when a
     * passing fleet's attainment is below the highest percentile its SLOs name (95 % for a p95), "" otherwise.
     */
    static String attainmentNote(Verification v) {
        List<Slo> slos = v.planned().slo().stream().map(Summary.SloResult::slo).toList();
        List<Summary> fleets = new ArrayList<>(List.of(v.planned(), v.lean()));
        if (v.smallest() != null) fleets.add(v.smallest());
        return attainmentNote(
                slos,
                fleets.stream()
                        .filter(Summary::sloPass)
                        .mapToDouble(Summary::sloAttainment)
                        .toArray());
    }

    /** The same note for a stored check (the report's verify table). */
    public static String attainmentNote(StoredCheck c) {
        List<Slo> slos = c.planned().slo().stream().map(x -> Slo.parse(x.slo())).toList();
        List<StoredFleet> fleets = new ArrayList<>(List.of(c.planned(), c.lean()));
        if (c.smallest() != null) fleets.add(c.smallest());
        return attainmentNote(
                slos,
                fleets.stream()
                        .filter(StoredFleet::sloPass)
                        .mapToDouble(StoredFleet::sloAttainment)
                        .toArray());
    }

    private static String attainmentNote(List<Slo> slos, double[] passingAttainments) {
        double expected = 0;
        for (Slo slo : slos) {
            double q = slo.isRate() ? 0 : slo.stat().quantile();
            if (q > 0 && q < 1) expected = Math.max(expected, q);
        }
        double lowest = Double.NaN;
        for (double a : passingAttainments) if (!(a >= lowest)) lowest = a;
        if (expected == 0 || !(lowest < expected)) return "";
        return String.format(
                Locale.ROOT,
                "note: PASS is each SLO's percentile over all requests; a passing fleet here has only %.1f %% of "
                        + "requests meeting every objective on their own (below the %.0f %% its SLOs name): its "
                        + "misses fall on different requests (docs/planning.md, \"Verify\")",
                lowest * 100,
                expected * 100);
    }

    private static String smallest(Verification v) {
        if (!v.found()) return "no fleet of up to " + v.searchedUpTo() + " replicas passes";
        return String.format(
                Locale.ROOT,
                "smallest passing %d replicas (attainment %.1f %%): planned %d = %d smallest %s %d capacity estimate "
                        + "+ %d headroom + %d redundancy",
                v.smallestReplicas(),
                v.smallest().sloAttainment() * 100,
                v.replicas(),
                v.smallestReplicas(),
                v.estimateReplicas() < 0 ? "−" : "+",
                Math.abs(v.estimateReplicas()),
                v.headroomReplicas(),
                v.redundancyReplicas());
    }

    private static String verdict(Summary s) {
        StringBuilder b = new StringBuilder(s.sloPass() ? "PASS (" : "FAIL (");
        for (Summary.SloResult r : s.slo()) {
            b.append(r.slo().text())
                    .append(" observed ")
                    .append(ConsoleTable.observed(r))
                    .append(r.pass() ? " ok" : " missed")
                    .append(", ");
        }
        return b.append(String.format(Locale.ROOT, "attainment %.1f %%)", s.sloAttainment() * 100))
                .toString();
    }

    public static String write(Comparison c, String toolVersion, String createdAt) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", COMPARE_SCHEMA);
        ArrayNode rows = root.putArray("ranking");
        int rank = 1;
        for (Comparison.OptionRow r : c.ranking()) {
            ObjectNode o = rows.addObject();
            o.put("rank", rank++);
            o.put("option", r.option());
            o.put("cheapest", r.cheapest());
            ArrayNode caps = o.putArray("capacity");
            r.capacities().forEach(k -> capacity(caps.addObject(), k));
            range(o.putObject("peak_replicas"), r.peakReplicas(), 0);
            JsonNumbers.put(o, "last_month_cost", r.lastMonthCost(), 2);
            range(o.putObject("horizon_cost"), r.horizonCost(), 2);
            ObjectNode d = o.putObject("dollars_per_mtok");
            JsonNumbers.put(d, "at_capacity", r.dollarsPerMtokAtCapacity(), 4);
            JsonNumbers.put(d, "as_planned", r.dollarsPerMtokAsPlanned(), 4);
        }
        if (c.mix() == null) {
            root.putNull("mix");
        } else {
            ObjectNode mix = root.putObject("mix");
            JsonNumbers.put(mix, "cost", c.mix().cost(), 2);
            mix.put("best_single_option", c.mix().bestSingleOption());
            JsonNumbers.put(mix, "best_single_cost", c.mix().bestSingleCost(), 2);
            JsonNumbers.put(mix, "saving", c.mix().saving(), 2);
            ArrayNode months = mix.putArray("months");
            for (Comparison.MixMonth m : c.mix().months()) {
                ObjectNode o = months.addObject();
                o.put("month", m.month() + 1);
                ObjectNode reps = o.putObject("replicas");
                m.replicas().forEach(reps::put);
                ObjectNode split = o.putObject("split");
                m.split().forEach((cls, s) -> {
                    ObjectNode x = split.putObject(cls);
                    s.forEach((opt, share) -> JsonNumbers.put(x, opt, share, 4));
                });
                JsonNumbers.put(o, "cost", m.cost(), 2);
                JsonNumbers.put(o, "best_single_cost", m.bestSingleCost(), 2);
            }
        }
        root.set("plan", tree(c.plan(), toolVersion, createdAt));
        return text(root);
    }

    static ObjectNode tree(Plan plan, String toolVersion, String createdAt) {
        ObjectNode root = JsonHeader.root(SCHEMA, toolVersion);
        root.put("created_at", createdAt);
        ObjectNode p = root.putObject("policy");
        JsonNumbers.put(p, "utilization_target", plan.policy().utilizationTarget(), 4);
        p.put("redundancy", plan.policy().redundancy());
        p.put("scaling", plan.policy().hourly() ? "hourly" : "static");
        p.put("min_replicas", plan.policy().minReplicas());
        p.put("pricing", plan.policy().pricing().wireName());
        JsonNumbers.put(p, "hours_per_month", plan.policy().hoursPerMonth(), 3);
        root.put("horizon_months", plan.forecast().horizonMonths());
        ArrayNode classes = root.putArray("classes");
        for (WorkloadClass wc : plan.forecast().classes()) {
            ObjectNode o = classes.addObject();
            o.put("name", wc.name());
            o.put("unit", wc.unit().wireName());
            if (wc.session() == null) {
                JsonNumbers.put(o, "isl", wc.isl(), 3);
                JsonNumbers.put(o, "osl", wc.osl(), 3);
            } else {
                ObjectNode s = o.putObject("session");
                s.put("turns", wc.session().turns());
                JsonNumbers.put(s, "turn_isl", wc.session().turnIsl(), 3);
                JsonNumbers.put(s, "turn_osl", wc.session().turnOsl(), 3);
                JsonNumbers.put(s, "system_prompt_tokens", wc.session().systemPromptTokens(), 3);
                JsonNumbers.put(s, "think_time_s", wc.session().thinkSeconds(), 3);
                JsonNumbers.put(o, "input_tokens_per_session", wc.isl(), 3);
                JsonNumbers.put(o, "output_tokens_per_session", wc.osl(), 3);
            }
            o.put("slo", wc.slo());
            JsonNumbers.put(o, "p90_factor", wc.traffic().p90(), 4);
        }
        ArrayNode options = root.putArray("options");
        for (CatalogOption co : plan.options()) {
            ObjectNode o = options.addObject();
            o.put("name", co.name());
            o.put("gpus_per_replica", co.gpusPerReplica());
            if (co.prefillDecode() != null) o.put("prefill_decode", co.prefillDecode());
            ObjectNode prices = o.putObject("price_per_gpu_hour");
            co.pricePerGpuHour().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> JsonNumbers.put(prices, e.getKey().wireName(), e.getValue(), 4));
        }
        ArrayNode caps = root.putArray("capacities");
        plan.capacities().forEach(k -> capacity(caps.addObject(), k));
        ArrayNode months = root.putArray("months");
        for (PlanRow r : plan.rows()) {
            ObjectNode o = months.addObject();
            o.put("month", r.month() + 1);
            o.put("class", r.workloadClass());
            o.put("option", r.option());
            range(o.putObject("replicas"), r.replicas(), 0);
            JsonNumbers.put(o, "mean_replicas", r.meanReplicas(), 3);
            JsonNumbers.put(o, "gpu_hours", r.gpuHours(), 2);
            range(o.putObject("cost"), r.cost(), 2);
            ObjectNode tokens = o.putObject("tokens");
            JsonNumbers.put(tokens, "input", r.inputTokens(), 0);
            JsonNumbers.put(tokens, "output", r.outputTokens(), 0);
            ObjectNode d = o.putObject("dollars_per_mtok");
            JsonNumbers.put(d, "at_capacity", r.dollarsPerMtokAtCapacity(), 4);
            JsonNumbers.put(d, "as_planned", r.dollarsPerMtokAsPlanned(), 4);
            JsonNumbers.put(d, "output_only", r.dollarsPerMtokOutputOnly(), 4);
            JsonNumbers.put(d, "input", r.dollarsPerMtokInput(), 4);
            JsonNumbers.put(d, "output", r.dollarsPerMtokOutput(), 4);
            JsonNumbers.put(o, "utilization", r.utilization(), 4);
        }
        ArrayNode totals = root.putArray("totals");
        for (Plan.OptionTotal t : plan.totals()) {
            ObjectNode o = totals.addObject();
            o.put("option", t.option());
            range(o.putObject("peak_replicas"), t.peakReplicas(), 0);
            JsonNumbers.put(o, "gpu_hours", t.gpuHours(), 2);
            range(o.putObject("cost"), t.cost(), 2);
            ObjectNode tokens = o.putObject("tokens");
            JsonNumbers.put(tokens, "input", t.inputTokens(), 0);
            JsonNumbers.put(tokens, "output", t.outputTokens(), 0);
            ObjectNode d = o.putObject("dollars_per_mtok");
            JsonNumbers.put(d, "as_planned", t.dollarsPerMtokAsPlanned(), 4);
            JsonNumbers.put(d, "output_only", t.dollarsPerMtokOutputOnly(), 4);
        }
        return root;
    }

    private static void capacity(ObjectNode o, Capacity k) {
        o.put("option", k.option());
        o.put("class", k.workloadClass());
        o.put("unit", k.unit().wireName());
        JsonNumbers.put(o, "max_" + k.unit().key(), k.max(), 4);
        JsonNumbers.put(o, "ci_low", k.ciLow(), 4);
        JsonNumbers.put(o, "ci_high", k.ciHigh(), 4);
        o.put("derived", k.derived());
        o.put("modelled", k.modelled());
        if (k.modelled()) JsonNumbers.put(o, "model_error", k.modelError(), 4);
        JsonNumbers.put(o, "prefill_share", k.prefillShare(), 4);
        if (k.unit().sessions()) JsonNumbers.put(o, "session_s", k.sessionSeconds(), 3);
        o.put("source", k.source());
    }

    private static void range(ObjectNode o, Range r, int decimals) {
        JsonNumbers.put(o, "point", r.point(), decimals);
        JsonNumbers.put(o, "low", r.low(), decimals);
        JsonNumbers.put(o, "high", r.high(), decimals);
    }

    private static String text(ObjectNode root) {
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
