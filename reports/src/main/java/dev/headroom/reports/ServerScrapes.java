package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code server_metrics.jsonl} read back: every scrape of the server's Prometheus metrics during a probe. */
public final class ServerScrapes {
    private ServerScrapes() {}

    /**
     * One scrape: seconds after the probe's start and every numeric series it held (empty when the scrape failed).
     */
    public record Scrape(double tSeconds, Map<String, Double> samples) {
        /** The first of {@code names} the scrape holds, summed over its series (labels); NaN when it holds none. */
        public double gauge(List<String> names) {
            for (String name : names) {
                double sum = 0;
                boolean found = false;
                for (var e : samples.entrySet()) {
                    String series = e.getKey();
                    int b = series.indexOf('{');
                    if ((b < 0 ? series : series.substring(0, b)).equals(name)) {
                        sum += e.getValue();
                        found = true;
                    }
                }
                if (found) return sum;
            }
            return Double.NaN;
        }
    }

    /** Every scrape in {@code file} (none when it is missing). */
    public static List<Scrape> read(Path file) {
        List<Scrape> out = new ArrayList<>();
        for (JsonNode n : JsonLines.read(file)) {
            Map<String, Double> samples = new LinkedHashMap<>();
            n.path("samples").properties().forEach(e -> {
                if (e.getValue().isNumber())
                    samples.put(e.getKey(), e.getValue().asDouble());
            });
            out.add(new Scrape(JsonNumbers.num(n.path("t_s")), samples));
        }
        return out;
    }
}
