package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.headroom.model.Distribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Metric;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.Summary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A probe result as one CSV row with a header: the same keys as summary.json, flattened ({@code ttft_ms_p99}). */
public final class SummaryCsv {
    private static final CsvMapper CSV = new CsvMapper();

    private SummaryCsv() {}

    public static Map<String, Object> row(ProbeReport report) {
        Summary s = report.summary();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("mode", report.run().load() instanceof LoadModel.Closed ? "closed" : "open");
        row.put("concurrency", report.run().load() instanceof LoadModel.Closed c ? c.concurrency() : null);
        row.put("rate", report.run().load() instanceof LoadModel.Open o ? o.ratePerSecond() : null);
        row.put("window_s", s.windowSeconds());
        row.put("completed", s.counts().completed());
        row.put("failed", s.counts().failed());
        row.put("incomplete", s.counts().incomplete());
        for (Metric m : Metric.SERIES) {
            String key = m.key();
            Distribution d = s.distribution(m);
            row.put(key + "_mean", d.mean());
            row.put(key + "_p50", d.p50());
            row.put(key + "_p90", d.p90());
            row.put(key + "_p99", d.p99());
        }
        row.put("output_tokens_per_s", s.outputTokensPerS());
        row.put("requests_per_s", s.requestsPerS());
        row.put("goodput_requests_per_s", s.goodputRequestsPerS());
        row.put("goodput_tokens_per_s", s.goodputTokensPerS());
        row.put("slo_attainment", s.sloAttainment());
        row.put("error_rate", s.errorRate());
        row.put("slo_pass", s.sloPass());
        row.put("client_bound", report.client().clientBound());
        return row;
    }

    /** Header plus rows; every row must have the same keys; numbers as {@link CsvNumbers} writes them. */
    public static String write(List<Map<String, Object>> rows) {
        if (rows.isEmpty()) return "";
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        rows.getFirst().keySet().forEach(schema::addColumn);
        try {
            return CSV.writer(schema.build())
                    .writeValueAsString(rows.stream()
                            .map(r -> r.values().stream().map(CsvNumbers::cell).toList())
                            .toList());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
