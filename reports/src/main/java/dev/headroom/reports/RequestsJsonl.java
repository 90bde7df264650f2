package dev.headroom.reports;

import static dev.headroom.reports.JsonNumbers.num;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.RequestRecord;
import java.io.BufferedWriter;
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
 * {@code requests.jsonl}: one line per request, appended as each finishes so nothing measured is lost if the run
 * is interrupted. Times are seconds after the run's start ({@code started_at} in summary.json).
 */
public final class RequestsJsonl implements AutoCloseable {
    private static final JsonFactory JSON = new JsonFactory();
    private final BufferedWriter out;

    public RequestsJsonl(Path file) {
        try {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * One line of requests.jsonl read back: times in seconds after the run's start (NaN where the request never got
     * that far), the output tokens counted.
     */
    public record Line(
            long id,
            boolean warmup,
            RequestRecord.Outcome outcome,
            double intendedS,
            double sentS,
            double firstTokenS,
            double lastTokenS,
            double endS,
            long osl) {}

    /** Every line of {@code file} (none when it is missing); a half-written last line, as a kill leaves, is skipped. */
    public static List<Line> read(Path file) {
        List<Line> out = new ArrayList<>();
        for (JsonNode n : JsonLines.read(file)) {
            RequestRecord.Outcome outcome;
            try {
                outcome =
                        RequestRecord.Outcome.valueOf(n.path("outcome").asText().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new BadInputException(file + ": line of request " + n.path("id") + " has outcome "
                        + n.path("outcome") + "; valid: completed, failed, incomplete, client_error");
            }
            out.add(new Line(
                    n.path("id").asLong(),
                    n.path("phase").asText().equals("warmup"),
                    outcome,
                    num(n.path("intended_s")),
                    num(n.path("sent_s")),
                    num(n.path("first_token_s")),
                    num(n.path("last_token_s")),
                    num(n.path("end_s")),
                    n.path("osl").asLong()));
        }
        return out;
    }

    /**
     * Appends one record and hands it to the operating system before returning, so a run killed at any moment (even
     * by {@code kill -9}) keeps every request that finished; thread-safe.
     */
    public synchronized void append(RequestRecord r) {
        try {
            write(out, r);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to requests.jsonl: " + e.getMessage(), e);
        }
    }

    static void write(Writer w, RequestRecord r) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.writeStartObject();
            g.writeNumberField("id", r.index());
            if (r.responseId() != null) g.writeStringField("response_id", r.responseId());
            g.writeStringField("phase", r.warmup() ? "warmup" : "measure");
            g.writeStringField("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
            seconds(g, "intended_s", r.intendedNanos());
            seconds(g, "sent_s", r.sentNanos());
            seconds(g, "first_token_s", r.firstTokenNanos());
            seconds(g, "last_token_s", r.lastTokenNanos());
            seconds(g, "end_s", r.endNanos());
            g.writeNumberField("chunks", r.chunkNanos().length);
            g.writeNumberField("isl", r.promptTokens());
            g.writeStringField("isl_source", r.promptSource().wireName());
            g.writeNumberField("isl_requested", r.requestedInputTokens());
            if (r.cachedTokens() >= 0) g.writeNumberField("cached_tokens", r.cachedTokens());
            g.writeNumberField("osl", r.completionTokens());
            g.writeStringField("osl_source", r.completionSource().wireName());
            g.writeNumberField("osl_requested", r.requestedOutputTokens());
            g.writeNumberField("max_gap_ms", r.maxGapNanos() / 1e6);
            if (r.slotWaitNanos() > 0) g.writeNumberField("slot_wait_ms", r.slotWaitNanos() / 1e6);
            g.writeNumberField("status", r.httpStatus());
            if (r.connection() != RequestRecord.Connection.UNKNOWN) {
                g.writeStringField("connection", r.connection().name().toLowerCase(Locale.ROOT));
            }
            if (r.failure() != null) {
                g.writeStringField("error_kind", r.failure().kind().wireName());
                g.writeStringField("error_message", r.failure().message());
            }
            g.writeEndObject();
        }
    }

    private static void seconds(JsonGenerator g, String field, long nanos) throws IOException {
        if (nanos < 0 && !field.equals("intended_s") && !field.equals("sent_s")) g.writeNullField(field);
        else g.writeNumberField(field, Math.round(nanos / 1e3) / 1e6);
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
