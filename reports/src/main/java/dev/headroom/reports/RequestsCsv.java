package dev.headroom.reports;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionTurn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code requests.csv}: the same per-request fields as requests.jsonl (all but the chunk times), one row per request,
 * empty where requests.jsonl leaves a field out, for spreadsheets; written as requests finish, so it holds nothing in
 * memory. Thread-safe.
 */
public final class RequestsCsv implements AutoCloseable {
    static final List<String> COLUMNS = List.of(
            "id",
            "response_id",
            "phase",
            "outcome",
            "user",
            "session",
            "turn",
            "session_turns",
            "call",
            "dropped_turns",
            "intended_s",
            "sent_s",
            "first_token_s",
            "last_token_s",
            "end_s",
            "chunks",
            "isl",
            "isl_source",
            "isl_requested",
            "cached_tokens",
            "osl",
            "osl_source",
            "osl_requested",
            "max_gap_ms",
            "slot_wait_ms",
            "status",
            "connection",
            "error_kind",
            "error_message");
    private static final CsvMapper CSV = new CsvMapper();

    private final Path file;
    private final Writer out;
    private final SequenceWriter rows;

    public RequestsCsv(Path file) {
        this.file = file;
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        COLUMNS.forEach(schema::addColumn);
        try {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            this.rows = CSV.writer(schema.build()).writeValues(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Appends one request's row. */
    public synchronized void append(RequestRecord r) {
        try {
            rows.write(row(r));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<Object> row(RequestRecord r) {
        List<Object> row = new ArrayList<>(COLUMNS.size());
        row.add(r.index());
        row.add(r.responseId());
        row.add(r.warmup() ? "warmup" : "measure");
        row.add(r.outcome().name().toLowerCase(Locale.ROOT));
        row.add(r.user() < 0 ? null : r.user());
        SessionTurn t = r.turn();
        row.add(t == null ? null : t.session());
        row.add(t == null ? null : t.turn());
        row.add(t == null ? null : t.turns());
        row.add(t == null || t.call() == 0 ? null : t.call());
        row.add(t == null || t.droppedTurns() == 0 ? null : t.droppedTurns());
        row.add(seconds(r.intendedNanos()));
        row.add(seconds(r.sentNanos()));
        row.add(r.firstTokenNanos() < 0 ? null : seconds(r.firstTokenNanos()));
        row.add(r.lastTokenNanos() < 0 ? null : seconds(r.lastTokenNanos()));
        row.add(r.endNanos() < 0 ? null : seconds(r.endNanos()));
        row.add(r.chunkNanos().length);
        row.add(r.promptTokens());
        row.add(r.promptSource().wireName());
        row.add(r.requestedInputTokens());
        row.add(r.cachedTokens() < 0 ? null : r.cachedTokens());
        row.add(r.completionTokens());
        row.add(r.completionSource().wireName());
        row.add(r.requestedOutputTokens());
        row.add(millis(r.maxGapNanos()));
        row.add(r.slotWaitNanos() > 0 ? millis(r.slotWaitNanos()) : null);
        row.add(r.httpStatus());
        row.add(
                r.connection() == RequestRecord.Connection.UNKNOWN
                        ? null
                        : r.connection().name().toLowerCase(Locale.ROOT));
        row.add(r.failure() == null ? null : r.failure().kind().wireName());
        row.add(r.failure() == null ? null : r.failure().message());
        return row;
    }

    /** To the microsecond requests.jsonl's times keep. */
    private static double seconds(long nanos) {
        return Metrics.micros(nanos) / 1e6;
    }

    /** As requests.jsonl writes it, to the nanosecond. */
    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    @Override
    public synchronized void close() {
        try {
            rows.close();
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
