package dev.headroom.reports;

import dev.headroom.model.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code requests.csv}: the same per-request fields as requests.jsonl, one row per request, for spreadsheets. */
public final class RequestsCsv {
    private RequestsCsv() {}

    public static String write(List<RequestRecord> records) {
        List<Map<String, Object>> rows = new ArrayList<>(records.size());
        for (RequestRecord r : records) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", r.index());
            row.put("phase", r.warmup() ? "warmup" : "measure");
            row.put("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
            row.put("intended_s", seconds(r.intendedNanos()));
            row.put("sent_s", seconds(r.sentNanos()));
            row.put("first_token_s", r.firstTokenNanos() < 0 ? null : seconds(r.firstTokenNanos()));
            row.put("last_token_s", r.lastTokenNanos() < 0 ? null : seconds(r.lastTokenNanos()));
            row.put("end_s", r.endNanos() < 0 ? null : seconds(r.endNanos()));
            row.put("chunks", r.chunkNanos().length);
            row.put("isl", r.promptTokens());
            row.put("isl_source", r.promptSource().wireName());
            row.put("isl_requested", r.requestedInputTokens());
            row.put("cached_tokens", r.cachedTokens() < 0 ? null : r.cachedTokens());
            row.put("osl", r.completionTokens());
            row.put("osl_source", r.completionSource().wireName());
            row.put("osl_requested", r.requestedOutputTokens());
            row.put("max_gap_ms", r.maxGapNanos() / 1e6);
            row.put("status", r.httpStatus());
            row.put("connection", r.connection().name().toLowerCase(Locale.ROOT));
            row.put(
                    "error_kind",
                    r.failure() == null ? null : r.failure().kind().wireName());
            row.put("error_message", r.failure() == null ? null : r.failure().message());
            rows.add(row);
        }
        return SummaryCsv.write(rows);
    }

    /** Writes the file; the error names it. */
    public static void write(Path file, List<RequestRecord> records) {
        RunFiles.write(file, write(records));
    }

    private static double seconds(long nanos) {
        return Math.round(nanos / 1e3) / 1e6;
    }
}
