package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.Knee;
import dev.headroom.model.ProbeReport;
import java.util.List;

/**
 * {@code sweep.json}, schema {@value #SCHEMA}: one row per load point with the same keys as each point's
 * summary.json (load, counts, metrics, slo_pass, client_bound), the point's directory, and the knee.
 */
public final class SweepJson {
    public static final String SCHEMA = "headroom.sweep/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SweepJson() {}

    /** @param dirs each point's run directory, relative to the sweep directory */
    public static String write(List<ProbeReport> points, List<String> dirs) {
        ObjectNode root = JsonHeader.root(
                SCHEMA, points.isEmpty() ? "" : points.getFirst().run().toolVersion());
        if (!points.isEmpty()) {
            ObjectNode first = SummaryJson.tree(points.getFirst());
            root.put("started_at", points.getFirst().run().startedAt());
            root.set("target", first.get("target"));
            ObjectNode workload = first.get("workload").deepCopy();
            workload.remove("prompt_salt"); // each point's prompts are its own: in its row
            root.set("workload", workload);
            root.put("seed", points.getFirst().run().seed());
        }
        ArrayNode rows = root.putArray("points");
        for (int i = 0; i < points.size(); i++) {
            ObjectNode full = SummaryJson.tree(points.get(i));
            ObjectNode row = rows.addObject();
            row.put("index", i + 1);
            row.put("dir", dirs.get(i));
            row.set("load", full.get("load"));
            row.set("window_s", full.get("window_s"));
            row.set("counts", full.get("counts"));
            row.set("metrics", full.get("metrics"));
            row.set("slo", full.get("slo"));
            row.set("slo_pass", full.get("slo_pass"));
            row.set("errors", full.get("errors"));
            row.set("client_bound", full.at("/client/client_bound"));
            row.set("prompt_salt", full.at("/workload/prompt_salt"));
            row.set("cache", full.get("cache"));
            row.set("warnings", full.get("warnings"));
            JsonNumbers.put(row, "power", Knee.power(points.get(i).summary()), 6);
        }
        int knee = Knee.find(points.stream().map(ProbeReport::summary).toList());
        ObjectNode k = root.putObject("knee");
        k.put("rule", "max of output_tokens_per_s / e2e_ms.p50 (Kleinrock's power)");
        if (knee < 0) {
            k.putNull("index");
        } else {
            k.put("index", knee + 1);
            k.put("load", points.get(knee).run().load().label());
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
