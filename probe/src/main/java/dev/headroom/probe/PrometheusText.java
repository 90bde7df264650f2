package dev.headroom.probe;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Prometheus text exposition format, read leniently: {@code name{label="v",…} value [timestamp]} lines; comments,
 * blank lines and lines that do not parse are skipped (a scrape is evidence, not a contract).
 */
final class PrometheusText {
    private PrometheusText() {}

    /** Every sample: the series ({@code name} or {@code name{labels}} as written) → its value. */
    static Map<String, Double> parse(String text) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int brace = line.indexOf('{');
            int end;
            String series;
            if (brace >= 0 && brace < indexOfSpace(line)) {
                end = closingBrace(line, brace);
                if (end < 0) continue;
                series = line.substring(0, end + 1);
                end++;
            } else {
                end = indexOfSpace(line);
                if (end < 0) continue;
                series = line.substring(0, end);
            }
            String[] rest = line.substring(end).strip().split("\\s+");
            if (rest.length == 0 || rest[0].isEmpty()) continue;
            try {
                out.put(
                        series,
                        switch (rest[0]) {
                            case "+Inf" -> Double.POSITIVE_INFINITY;
                            case "-Inf" -> Double.NEGATIVE_INFINITY;
                            default -> Double.parseDouble(rest[0]);
                        });
            } catch (NumberFormatException skipped) {
                // not a sample line
            }
        }
        return out;
    }

    /**
     * The metric name of a series ({@code vllm:num_requests_running{model_name="x"}} → {@code
     * vllm:num_requests_running}).
     */
    static String name(String series) {
        int b = series.indexOf('{');
        return b < 0 ? series : series.substring(0, b);
    }

    private static int indexOfSpace(String s) {
        for (int i = 0; i < s.length(); i++) if (Character.isWhitespace(s.charAt(i))) return i;
        return -1;
    }

    private static int closingBrace(String s, int open) {
        boolean quoted = false;
        for (int i = open + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') i++;
            else if (c == '"') quoted = !quoted;
            else if (c == '}' && !quoted) return i;
        }
        return -1;
    }
}
