package dev.headroom.reports;

import dev.headroom.model.LoadModel;
import dev.headroom.model.fit.Comparison;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console table of a twin against its check points (points no probe fitted): per point its load and lengths,
 * and per metric what was measured, what the twin predicts, and the signed error.
 */
public final class CheckTable {
    private CheckTable() {}

    public static String table(List<Comparison> checks) {
        if (checks.isEmpty()) return "";
        Map<String, List<Comparison>> byPoint = new LinkedHashMap<>();
        for (Comparison c : checks) {
            byPoint.computeIfAbsent(c.observation().id(), k -> new java.util.ArrayList<>())
                    .add(c);
        }
        StringBuilder b = new StringBuilder("the twin where no probe went (check points):\n");
        b.append(String.format(
                Locale.ROOT,
                "%-9s %6s %11s  %-30s %10s %10s %8s%n",
                "point",
                "users",
                "isl / osl",
                "metric",
                "measured",
                "twin",
                "error"));
        for (var e : byPoint.entrySet()) {
            var r = e.getValue().getFirst().observation().request();
            int users = r.load() instanceof LoadModel.Closed c ? c.concurrency() : 1;
            String shape = Math.round(r.workload().inputTokens().mean()) + " / "
                    + Math.round(r.workload().outputTokens().mean());
            boolean first = true;
            for (Comparison c : e.getValue()) {
                String unit = c.target().metric().isRate() ? "tok/s" : "ms";
                b.append(String.format(
                        Locale.ROOT,
                        "%-9s %6s %11s  %-30s %10s %10s %7.1f%%%n",
                        first ? e.getKey() : "",
                        first ? String.valueOf(users) : "",
                        first ? shape : "",
                        c.target().label() + " (" + unit + ")",
                        String.format(Locale.ROOT, "%.1f", c.target().value()),
                        String.format(Locale.ROOT, "%.1f", c.predicted()),
                        100 * c.signedError()));
                first = false;
            }
        }
        return b.toString();
    }
}
