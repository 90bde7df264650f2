package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;

import java.util.Locale;

/** {@code search.json}, schema {@value #SCHEMA}. */
public final class SearchJson {
    public static final String SCHEMA = "headroom.search/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SearchJson() {}

    public static String write(SearchReport s) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", "headroom");
        tool.put("version", s.run().toolVersion());
        root.put("started_at", s.run().startedAt());
        root.put("objective", s.objective());
        ArrayNode slo = root.putArray("slo");
        s.slos().stream().map(Slo::text).forEach(slo::add);
        ObjectNode target = root.putObject("target");
        target.put("url", s.run().url());
        target.put("model", s.run().model());
        target.put("api", s.run().api());
        if (s.run().simulator() == null) target.putNull("simulator"); else target.put("simulator", s.run().simulator());
        ObjectNode workload = root.putObject("workload");
        workload.put("description", s.run().workload());
        root.put("seed", s.run().seed());
        ObjectNode range = root.putObject("range");
        JsonNumbers.put(range, "min", s.min(), 6);
        JsonNumbers.put(range, "max", s.max(), 6);
        JsonNumbers.put(range, "tolerance", s.tolerance(), 6);
        ObjectNode result = root.putObject("result");
        JsonNumbers.put(result, "value", s.value(), 6);
        JsonNumbers.put(result, "ci_low", s.ciLow(), 6);
        JsonNumbers.put(result, "ci_high", s.ciHigh(), 6);
        result.put("binding_slo", s.bindingSlo());
        result.put("boundary_type", s.boundaryType());
        result.put("stop_reason", s.stopReason());
        result.put("simulated", s.simulated());
        ArrayNode probes = root.putArray("probes");
        for (SearchReport.Probe p : s.probes()) {
            ObjectNode o = probes.addObject();
            o.put("index", p.index());
            JsonNumbers.put(o, "load", p.load(), 6);
            ObjectNode margins = o.putObject("margins");
            p.margins().forEach((k, v) -> {
                ObjectNode m = margins.putObject(k);
                JsonNumbers.put(m, "value", v[0], 6);
                JsonNumbers.put(m, "se", v[1], 6);
            });
            o.put("verdict", p.pass() ? "pass" : "fail");
            o.put("requests", p.requests());
            JsonNumbers.put(o, "duration_s", p.seconds(), 3);
            o.put("dir", p.dir());
        }
        ObjectNode curves = root.putObject("curves");
        ObjectNode iso = curves.putObject("isotonic");
        s.curves().forEach((k, pts) -> {
            ArrayNode a = iso.putArray(k);
            for (double[] pt : pts) {
                ObjectNode q = a.addObject();
                JsonNumbers.put(q, "load", pt[0], 6);
                JsonNumbers.put(q, "margin", pt[1], 6);
            }
        });
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The console lines: one per probe, then the answer. */
    public static String probeLine(SearchReport.Probe p, String bracket) {
        StringBuilder margins = new StringBuilder();
        p.margins().forEach((k, v) -> margins.append(String.format(Locale.ROOT, "  %s %+.1f%%", k, v[0] * 100)));
        return String.format(Locale.ROOT, "probe %2d  load %-10s %s %s  %s", p.index(), ConsoleTable.n(p.load()),
                p.pass() ? "pass" : "FAIL", margins, bracket);
    }

    public static String answer(SearchReport s) {
        String unit = s.objective().equals("max-rate") ? " requests/s" : " concurrent requests";
        if (Double.isNaN(s.value())) {
            return String.format(Locale.ROOT, "%s: below the range: fails %s already at %s%s (stop: %s)%n", s.objective(),
                    s.bindingSlo(), ConsoleTable.n(s.min()), unit, s.stopReason());
        }
        return String.format(Locale.ROOT, "%s under %s: %s%s (interval %s .. %s, binding %s, %s boundary, stop: %s, %d probes%s)%n",
                s.objective(), String.join(" and ", s.slos().stream().map(Slo::text).toList()), ConsoleTable.n(s.value()),
                unit, ConsoleTable.n(s.ciLow()), Double.isNaN(s.ciHigh()) ? "above " + ConsoleTable.n(s.max()) : ConsoleTable.n(s.ciHigh()),
                s.bindingSlo(), s.boundaryType(), s.stopReason(), s.probes().size(), s.simulated() ? ", simulated" : "");
    }

}
