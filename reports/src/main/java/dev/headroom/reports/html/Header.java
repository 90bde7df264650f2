package dev.headroom.reports.html;

import static dev.headroom.reports.html.Page.esc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** What was measured and how — everything needed to reproduce the run (seed 001's checklist). */
final class Header {
    private Header() {}

    static List<String[]> of(JsonNode result, String kind) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"result", esc(kind + " (" + result.path("schema").asText() + ")")});
        rows.add(new String[] {
            "tool", esc("headroom " + result.at("/tool/version").asText())
        });
        String date = result.has("started_at")
                ? result.path("started_at").asText()
                : result.path("created_at").asText();
        rows.add(new String[] {"date", esc(date)});
        if (result.has("source")) {
            JsonNode src = result.path("source");
            rows.add(new String[] {
                "imported from",
                esc(src.path("tool").asText() + " " + src.path("version").asText() + ": "
                        + src.path("file").asText()
                        + (src.path("benchmark").asText().isEmpty()
                                ? ""
                                : " [" + src.path("benchmark").asText() + "]"))
            });
        }
        JsonNode t = result.path("target");
        if (!t.isMissingNode()) {
            rows.add(new String[] {
                "target",
                esc(t.path("url").asText())
                        + (t.path("simulator").isTextual()
                                ? " — simulator: " + esc(t.path("simulator").asText())
                                : "")
            });
            rows.add(new String[] {
                "model / api",
                esc(t.path("model").asText() + " / " + t.path("api").asText())
            });
        }
        JsonNode w = result.path("workload");
        if (!w.isMissingNode()) {
            rows.add(new String[] {
                "workload",
                esc(w.path("description").asText()
                        + (w.has("input_length")
                                ? "; input length: " + w.path("input_length").asText()
                                : ""))
            });
        }
        JsonNode load = result.path("load");
        if (load.isObject()) {
            String mode = load.path("mode").asText();
            rows.add(new String[] {
                "load model",
                esc(
                        mode.equals("closed")
                                ? "closed loop, " + load.path("concurrency").asText() + " users"
                                : "open loop, " + load.path("rate").asText() + " req/s, "
                                        + load.path("arrival").asText() + " arrivals")
            });
        }
        if (result.has("seed"))
            rows.add(new String[] {"seed", esc(result.path("seed").asText())});
        JsonNode client = result.path("client");
        if (client.isObject()) {
            boolean bound = client.path("client_bound").asBoolean();
            StringBuilder warn = new StringBuilder();
            client.path("warnings").forEach(x -> warn.append("; ").append(esc(x.asText())));
            rows.add(new String[] {
                "client health",
                (bound ? "<span class=\"bad\">CLIENT-BOUND</span>" : "<span class=\"ok\">ok</span>") + warn
            });
        }
        return rows;
    }
}
