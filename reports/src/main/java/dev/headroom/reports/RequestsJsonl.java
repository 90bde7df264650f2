package dev.headroom.reports;

import static dev.headroom.reports.JsonNumbers.num;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.ErrorKind;
import dev.headroom.model.Metrics;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.TokenSource;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code requests.jsonl}: one line per request, appended as each finishes so nothing measured is lost if the run
 * is interrupted. Times are seconds after the run's start ({@code started_at} in summary.json), to the microsecond,
 * the resolution of every metric, so {@link #records} reads back records whose metrics are the run's.
 */
public final class RequestsJsonl implements AutoCloseable {
    private static final JsonFactory JSON = new JsonFactory();
    private final BufferedWriter out;
    private final boolean chunkTimes;

    /** A file of one line per request, without per-chunk times. */
    public RequestsJsonl(Path file) {
        this(file, false);
    }

    /**
     * @param chunkTimes also write each content chunk's arrival ({@code chunk_us}: µs after the first token) and,
     *                   where a chunk carried more than one token, the tokens of each ({@code chunk_tokens})
     */
    public RequestsJsonl(Path file, boolean chunkTimes) {
        this.chunkTimes = chunkTimes;
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
    /** What the report draws of one request; {@code cachedTokens} is -1 when the server did not say. */
    public record Line(
            long id,
            boolean warmup,
            RequestRecord.Outcome outcome,
            double intendedS,
            double sentS,
            double firstTokenS,
            double lastTokenS,
            double endS,
            long osl,
            long isl,
            long cachedTokens) {}

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
                    n.path("osl").asLong(),
                    n.path("isl").asLong(),
                    n.path("cached_tokens").asLong(-1)));
        }
        return out;
    }

    /**
     * Every line of {@code file} as the record it was written from, to {@code sink} one at a time (a file of any
     * length in little memory); a half-written last line, as a kill leaves, is skipped. Without per-chunk times
     * ({@code chunk_us}) a record has its first and last content chunk only: everything but itl is as measured.
     *
     * @return how many lines carried per-chunk times, and how many did not
     */
    public static ChunkTimes records(Path file, Consumer<Read> sink) {
        long[] with = {0}, without = {0};
        JsonLines.forEach(file, (n, lineNo) -> {
            RequestRecord rec = record(file, lineNo, n);
            boolean every = n.has("chunk_us") || rec.chunkNanos().length < 2;
            if (every) with[0]++;
            else without[0]++;
            sink.accept(new Read(rec, every));
        });
        return new ChunkTimes(with[0], without[0]);
    }

    /** One record read back; {@code everyChunk}: it holds every content chunk's time, so its itl is as measured. */
    public record Read(RequestRecord record, boolean everyChunk) {}

    /** Of the lines read, how many had every chunk's time (or fewer than two chunks), and how many did not. */
    public record ChunkTimes(long complete, long firstAndLastOnly) {}

    private static RequestRecord record(Path file, long lineNo, JsonNode n) {
        String where = file + " line " + lineNo;
        long first = micros(n.path("first_token_s"));
        long last = micros(n.path("last_token_s"));
        int chunks = n.path("chunks").asInt();
        long[] times;
        int[] tokens;
        JsonNode offsets = n.path("chunk_us");
        if (offsets.isArray()) {
            times = new long[offsets.size()];
            tokens = new int[offsets.size()];
            JsonNode perChunk = n.path("chunk_tokens");
            for (int i = 0; i < times.length; i++) {
                times[i] = (first + offsets.get(i).asLong()) * 1000;
                tokens[i] = perChunk.isArray() ? perChunk.path(i).asInt(1) : 1;
            }
        } else if (chunks == 0 || first < 0) {
            times = new long[0];
            tokens = new int[0];
        } else if (chunks == 1) {
            times = new long[] {first * 1000};
            tokens = new int[] {Math.max(1, n.path("osl").asInt())};
        } else {
            times = new long[] {first * 1000, last * 1000};
            tokens = new int[] {1, Math.max(1, n.path("osl").asInt() - 1)};
        }
        String kind = n.path("error_kind").asText(null);
        RequestRecord.Failure failure = null;
        if (kind != null) {
            failure = new RequestRecord.Failure(
                    errorKind(where, kind), n.path("error_message").asText(""));
        }
        return new RequestRecord(
                n.path("id").asLong(),
                n.path("phase").asText().equals("warmup"),
                micros(n.path("intended_s")) * 1000,
                micros(n.path("sent_s")) * 1000,
                first < 0 ? -1 : first * 1000,
                n.path("end_s").isNumber() ? micros(n.path("end_s")) * 1000 : -1,
                times,
                tokens,
                n.path("isl").asInt(),
                tokenSource(where, n.path("isl_source").asText("requested")),
                n.path("osl").asInt(),
                tokenSource(where, n.path("osl_source").asText("counted")),
                n.path("osl_requested").asInt(),
                n.path("status").asInt(),
                0,
                Math.round(n.path("slot_wait_ms").asDouble(0) * 1e6),
                outcome(where, n),
                failure,
                n.path("response_id").asText(null),
                n.path("cached_tokens").isNumber() ? n.path("cached_tokens").asInt() : -1,
                connection(n.path("connection").asText("unknown")),
                n.path("isl_requested").asInt(),
                turn(n),
                n.path("user").asInt(-1));
    }

    /**
     * A session request's place ({@code session}, {@code turn}, {@code call}, {@code dropped_turns},
     * {@code session_turns}), or null.
     */
    private static SessionTurn turn(JsonNode n) {
        if (!n.path("session").canConvertToLong()) return null;
        return new SessionTurn(
                n.path("session").asLong(),
                n.path("turn").asInt(),
                n.path("call").asInt(0),
                n.path("dropped_turns").asInt(0),
                n.path("session_turns").asInt(n.path("turn").asInt() + 1));
    }

    /** Whole microseconds of a time in seconds; -1 when it is null (never happened). */
    private static long micros(JsonNode seconds) {
        return seconds.isNumber() ? Math.round(seconds.asDouble() * 1e6) : -1;
    }

    private static RequestRecord.Outcome outcome(String where, JsonNode n) {
        try {
            return RequestRecord.Outcome.valueOf(n.path("outcome").asText().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(
                    where + ": outcome " + n.path("outcome") + "; valid: completed, failed, incomplete, client_error");
        }
    }

    private static TokenSource tokenSource(String where, String wire) {
        for (TokenSource t : TokenSource.values()) if (t.wireName().equals(wire)) return t;
        throw new BadInputException(
                where + ": token source '" + wire + "'; valid: usage, server, tokenizer, " + "counted, requested");
    }

    private static ErrorKind errorKind(String where, String wire) {
        for (ErrorKind k : ErrorKind.values()) if (k.wireName().equals(wire)) return k;
        throw new BadInputException(where + ": error_kind '" + wire + "'; valid: "
                + Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName).collect(Collectors.joining(", ")));
    }

    private static RequestRecord.Connection connection(String wire) {
        return switch (wire) {
            case "new" -> RequestRecord.Connection.NEW;
            case "reused" -> RequestRecord.Connection.REUSED;
            default -> RequestRecord.Connection.UNKNOWN;
        };
    }

    /**
     * Appends one record and hands it to the operating system before returning, so a run killed at any moment (even
     * by {@code kill -9}) keeps every request that finished; thread-safe.
     */
    public synchronized void append(RequestRecord r) {
        try {
            write(out, r, chunkTimes);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to requests.jsonl: " + e.getMessage(), e);
        }
    }

    static void write(Writer w, RequestRecord r, boolean chunkTimes) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.writeStartObject();
            g.writeNumberField("id", r.index());
            if (r.responseId() != null) g.writeStringField("response_id", r.responseId());
            g.writeStringField("phase", r.warmup() ? "warmup" : "measure");
            g.writeStringField("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
            if (r.user() >= 0) g.writeNumberField("user", r.user());
            if (r.turn() != null) {
                g.writeNumberField("session", r.turn().session());
                g.writeNumberField("turn", r.turn().turn());
                g.writeNumberField("session_turns", r.turn().turns());
                if (r.turn().call() > 0) g.writeNumberField("call", r.turn().call());
                if (r.turn().droppedTurns() > 0)
                    g.writeNumberField("dropped_turns", r.turn().droppedTurns());
            }
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
            if (chunkTimes && r.chunkNanos().length > 0) chunks(g, r);
            g.writeEndObject();
        }
    }

    private static void chunks(JsonGenerator g, RequestRecord r) throws IOException {
        long[] t = r.chunkNanos();
        long first = Metrics.micros(t[0]);
        g.writeArrayFieldStart("chunk_us");
        boolean ones = true;
        for (int i = 0; i < t.length; i++) {
            g.writeNumber(Metrics.micros(t[i]) - first);
            ones &= r.chunkTokens()[i] == 1;
        }
        g.writeEndArray();
        if (!ones) {
            g.writeArrayFieldStart("chunk_tokens");
            for (int n : r.chunkTokens()) g.writeNumber(n);
            g.writeEndArray();
        }
    }

    private static void seconds(JsonGenerator g, String field, long nanos) throws IOException {
        if (nanos < 0 && !field.equals("intended_s") && !field.equals("sent_s")) g.writeNullField(field);
        else g.writeNumberField(field, Metrics.micros(nanos) / 1e6);
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
