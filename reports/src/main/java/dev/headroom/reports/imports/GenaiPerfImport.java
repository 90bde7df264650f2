package dev.headroom.reports.imports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * NVIDIA GenAI-Perf CSV: {@code profile_export_genai_perf.csv} (a stats table, a blank line, a {@code Metric,Value}
 * table; CRLF; numbers over 1,000 quoted with separators) and the {@code analyze} sweep table (one row per run
 * config, p99s and throughputs).
 */
final class GenaiPerfImport {
    private GenaiPerfImport() {}

    static boolean recognises(List<String> lines) {
        if (lines.isEmpty()) return false;
        String h = lines.get(0);
        return h.startsWith("Metric,avg,min,max") || h.startsWith("Config Name,Concurrency,");
    }

    static List<Imported> read(Path file, List<String> lines, String tool) {
        return lines.get(0).startsWith("Config Name") ? analyze(file, lines) : profile(file, lines, tool);
    }

    /** AIPerf's CSV has p1 and p5 columns; GenAI-Perf's does not. */
    static boolean looksLikeAiperf(List<String> lines) {
        return lines.get(0).startsWith("Metric,avg,min,max,p1,");
    }

    private static List<Imported> profile(Path file, List<String> lines, String tool) {
        Imported r = new Imported(tool, "not recorded", file.toString());
        List<String> header = cells(lines.get(0));
        boolean values = false;
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) continue;
            List<String> c = cells(line);
            if (c.get(0).equals("Metric")) {
                values = true;
                continue;
            }
            String name = c.get(0);
            if (!values) {
                String ours = switch (name.replaceAll(" \\(.*\\)$", "").toLowerCase(Locale.ROOT)) {
                    case "time to first token" -> "ttft_ms";
                    case "request latency" -> "e2e_ms";
                    case "inter token latency" -> "tpot_ms";
                    case "output sequence length" -> "osl";
                    case "input sequence length" -> "isl";
                    default -> null;
                };
                if (ours == null) {
                    r.sourceMetrics.put(name + " avg", number(c.get(1)));
                    continue;
                }
                for (int i = 1; i < c.size() && i < header.size(); i++) {
                    String stat = header.get(i).equals("avg") ? "mean" : header.get(i);
                    if (List.of("mean", "min", "max", "p50", "p90", "p95", "p99")
                            .contains(stat)) r.stat(ours, stat, number(c.get(i)));
                }
            } else {
                Double v = c.size() > 1 ? number(c.get(1)) : null;
                switch (name) {
                    case "Output Token Throughput (per sec)", "Output Token Throughput (tokens/sec)" ->
                        r.metric("output_tokens_per_s", v);
                    case "Request Throughput (per sec)", "Request Throughput (requests/sec)" ->
                        r.metric("requests_per_s", v);
                    case "Request Count (count)", "Request Count" -> r.completed = v == null ? null : Math.round(v);
                    case "Error Request Count" -> r.failed = v == null ? null : Math.round(v);
                    case "Benchmark Duration (sec)" -> r.windowS = v;
                    default -> r.sourceMetrics.put(name, v);
                }
            }
        }
        r.label = "profile";
        if (r.completed != null && r.failed != null && r.completed + r.failed > 0) {
            r.metric("error_rate", (double) r.failed / (r.completed + r.failed));
        }
        r.notes.add((tool.equals("aiperf") ? "AIPerf" : "GenAI-Perf")
                + "'s inter_token_latency is (e2e - ttft) / (osl - 1) per request: imported as tpot_ms");
        r.notes.add("the load model is not in this CSV (it is in the perf_analyzer profile_export.json beside it)");
        return List.of(r);
    }

    private static List<Imported> analyze(Path file, List<String> lines) {
        List<String> header = cells(lines.get(0));
        List<Imported> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) break; // the GPU table follows a blank line
            List<String> c = cells(line);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size() && i < c.size(); i++) row.put(header.get(i), c.get(i));
            Imported r = new Imported("genai-perf", "not recorded", file.toString());
            r.label = row.getOrDefault("Config Name", "run");
            Double conc = number(row.get("Concurrency"));
            if (conc != null) {
                r.loadMode = "closed";
                r.concurrency = conc;
            }
            r.stat("ttft_ms", "p99", number(row.get("p99 Time To First Token (ms)")));
            r.stat("tpot_ms", "p99", number(row.get("p99 Inter Token Latency (ms)")));
            r.stat("e2e_ms", "p99", number(row.get("p99 Request Latency (ms)")));
            r.stat("osl", "p99", number(row.get("p99 Output Sequence Length (tokens)")));
            r.stat("isl", "mean", number(row.get("ISL")));
            r.metric("output_tokens_per_s", number(row.get("Avg. Output Token Throughput (tokens/sec)")));
            r.metric("requests_per_s", number(row.get("Request Throughput (requests/sec)")));
            r.notes.add(
                    "GenAI-Perf's inter_token_latency is (e2e - ttft) / (osl - 1) per request: imported as tpot_ms");
            r.notes.add("ISL is the configured input length of the run (genai-perf analyze)");
            out.add(r);
        }
        return out;
    }

    /** CSV cells, honouring quotes ("2,235.71"). */
    static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char ch : line.toCharArray()) {
            if (ch == '"') quoted = !quoted;
            else if (ch == ',' && !quoted) {
                out.add(cur.toString().trim());
                cur.setLength(0);
            } else cur.append(ch);
        }
        out.add(cur.toString().trim());
        return out;
    }

    private static Double number(String s) {
        if (s == null || s.isBlank()) return null;
        try {
            return Double.parseDouble(s.replace(",", ""));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
