package dev.headroom.reports;

import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code plan.csv}: one row per month × class × option; with hours, one row per representative hour. */
public final class PlanCsv {
    private PlanCsv() {}

    public static String months(Plan plan) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (PlanRow r : plan.rows()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("month", r.month() + 1);
            row.put("class", r.workloadClass());
            row.put("option", r.option());
            row.put("replicas", r.replicas().point());
            row.put("replicas_low", r.replicas().low());
            row.put("replicas_high", r.replicas().high());
            row.put("mean_replicas", r.meanReplicas());
            row.put("gpu_hours", r.gpuHours());
            row.put("cost", r.cost().point());
            row.put("cost_low", r.cost().low());
            row.put("cost_high", r.cost().high());
            row.put("input_tokens", r.inputTokens());
            row.put("output_tokens", r.outputTokens());
            row.put("usd_per_mtok_at_capacity", r.dollarsPerMtokAtCapacity());
            row.put("usd_per_mtok_as_planned", r.dollarsPerMtokAsPlanned());
            row.put("usd_per_mtok_output_only", r.dollarsPerMtokOutputOnly());
            row.put("usd_per_mtok_input", r.dollarsPerMtokInput());
            row.put("usd_per_mtok_output", r.dollarsPerMtokOutput());
            row.put("utilization", r.utilization());
            rows.add(row);
        }
        return SummaryCsv.write(rows);
    }

    /**
     * Hourly rows: month, day of week (0 = Monday), hour, class, option, rps, replicas, and the hours each stands for;
     * when the forecast has classes in sessions or users, their load in columns {@code sessions_per_s} and
     * {@code users} after those (each class's load in its own unit's column, the others empty).
     */
    public static String hours(Plan plan) {
        Map<String, LoadUnit> units = new LinkedHashMap<>();
        plan.forecast().classes().forEach(c -> units.put(c.name(), c.unit()));
        boolean sessions = units.values().stream().anyMatch(LoadUnit::sessions);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Plan.HourRow h : plan.hours()) {
            LoadUnit unit = units.getOrDefault(h.workloadClass(), LoadUnit.REQUESTS);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("month", h.month() + 1);
            row.put("day_of_week", h.dayOfWeek());
            row.put("hour", h.hourOfDay());
            row.put("class", h.workloadClass());
            row.put("option", h.option());
            row.put("rps", unit == LoadUnit.REQUESTS ? h.load() : "");
            row.put("replicas", h.replicas());
            row.put("hours", h.weight());
            if (sessions) {
                row.put(LoadUnit.SESSIONS.key(), unit == LoadUnit.SESSIONS ? h.load() : "");
                row.put(LoadUnit.USERS.key(), unit == LoadUnit.USERS ? h.load() : "");
            }
            rows.add(row);
        }
        return SummaryCsv.write(rows);
    }
}
