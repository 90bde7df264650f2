package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.Summary;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Range;
import dev.headroom.model.plan.Verification;
import dev.headroom.model.plan.WorkloadClass;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code plan.json} (schema {@value #SCHEMA}) and {@code compare.json} (schema {@value #COMPARE_SCHEMA}). */
public final class PlanJson {
    public static final String SCHEMA = "headroom.plan/v1";
    public static final String COMPARE_SCHEMA = "headroom.compare/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PlanJson() {}

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
                            + "without headroom and redundancy %d replicas %s%n",
                    v.workloadClass(),
                    v.option(),
                    v.month() + 1,
                    ConsoleTable.n(v.rps()),
                    ConsoleTable.n(v.seconds()),
                    v.replicas(),
                    verdict(v.planned()),
                    v.leanReplicas(),
                    verdict(v.lean())));
        }
        return b.toString();
    }

    private static String verdict(Summary s) {
        StringBuilder b = new StringBuilder(s.sloPass() ? "PASS (" : "FAIL (");
        for (Summary.SloResult r : s.slo()) {
            b.append(r.slo().text())
                    .append(" observed ")
                    .append(ConsoleTable.n(r.observed()))
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
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", "headroom");
        tool.put("version", toolVersion);
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
            JsonNumbers.put(o, "isl", wc.isl(), 3);
            JsonNumbers.put(o, "osl", wc.osl(), 3);
            o.put("slo", wc.slo());
            JsonNumbers.put(o, "p90_factor", wc.traffic().p90(), 4);
        }
        ArrayNode options = root.putArray("options");
        for (CatalogOption co : plan.options()) {
            ObjectNode o = options.addObject();
            o.put("name", co.name());
            o.put("gpus_per_replica", co.gpusPerReplica());
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
        JsonNumbers.put(o, "max_rps", k.maxRps(), 4);
        JsonNumbers.put(o, "ci_low", k.ciLow(), 4);
        JsonNumbers.put(o, "ci_high", k.ciHigh(), 4);
        o.put("derived", k.derived());
        JsonNumbers.put(o, "prefill_share", k.prefillShare(), 4);
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
