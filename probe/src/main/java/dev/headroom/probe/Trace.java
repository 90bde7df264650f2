package dev.headroom.probe;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.IoReason;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A request trace to replay, Mooncake style: JSONL lines of {@code timestamp} (milliseconds), {@code input_length}
 * and {@code output_length} (also {@code isl}/{@code osl}), and optionally {@code hash_ids}: the prompt's blocks of
 * {@value #BLOCK_TOKENS} tokens, two requests sharing a block exactly where their ids match (the last block may be
 * partial). Lines are replayed in timestamp order, at their recorded offsets from the first.
 *
 * <p>A <b>session trace</b> gives every line a {@code session_id} (and optionally its {@code turn}): each line is one
 * turn of a conversation, its {@code input_length} the turn's new user message and {@code output_length} its answer
 * ({@link #sessionList}).
 *
 * @param hashIds     each request's block ids, or null for a request (or a trace) without them
 * @param sessionList a session trace's sessions in the order their first turns arrived; empty for a trace of
 *                    independent requests
 */
public record Trace(
        Path file,
        double[] offsetsSeconds,
        int[] inputTokens,
        int[] outputTokens,
        long[][] hashIds,
        List<Session> sessionList) {
    /** Tokens per hash id in Mooncake's traces. */
    public static final int BLOCK_TOKENS = 512;
    /** The longest prompt or answer a trace line may ask for: ten million tokens, more than any model's context. */
    static final int MAX_TOKENS = 10_000_000;

    public static Trace load(Path file) {
        if (!Files.isRegularFile(file)) throw new BadInputException("{trace} " + file + ": no such file");
        ObjectMapper json = new ObjectMapper();
        List<long[]> rows = new ArrayList<>();
        List<long[]> hashes = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<Integer> turnOf = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.isBlank()) continue;
                JsonNode o = json.readTree(line);
                JsonNode ts = o.path("timestamp");
                JsonNode isl = o.has("input_length") ? o.get("input_length") : o.path("isl");
                JsonNode osl = o.has("output_length") ? o.get("output_length") : o.path("osl");
                if (!ts.isNumber()
                        || !isl.canConvertToInt()
                        || isl.asInt() < 1
                        || !osl.canConvertToInt()
                        || osl.asInt() < 1) {
                    throw new BadInputException("{trace} " + file + " line " + n + ": needs numeric \"timestamp\" "
                            + "(ms), \"input_length\" >= 1 and \"output_length\" >= 1");
                }
                if (isl.asInt() > MAX_TOKENS || osl.asInt() > MAX_TOKENS) {
                    throw new BadInputException(String.format(
                            java.util.Locale.ROOT,
                            "{trace} %s line %d: \"input_length\" %d and \"output_length\" %d must each be at most "
                                    + "%,d tokens, more than any model's context",
                            file,
                            n,
                            isl.asInt(),
                            osl.asInt(),
                            MAX_TOKENS));
                }
                JsonNode session = o.path("session_id");
                boolean inSession = session.isValueNode() && !session.isNull();
                if (!ids.isEmpty() && inSession != (ids.getFirst() != null)) {
                    throw new BadInputException("{trace} " + file + " line " + n + ": every line has a \"session_id\" "
                            + "(a session trace) or none does (a trace of requests)");
                }
                JsonNode turn = o.path("turn");
                if (!turn.isMissingNode() && !(turn.canConvertToInt() && turn.asInt() >= 0)) {
                    throw new BadInputException("{trace} " + file + " line " + n + ": \"turn\" must be a whole "
                            + "number >= 0, got " + turn);
                }
                rows.add(new long[] {Math.round(ts.asDouble() * 1000), isl.asInt(), osl.asInt(), hashes.size()});
                hashes.add(hashIds(o.path("hash_ids"), isl.asInt(), file, n));
                ids.add(inSession ? session.asText() : null);
                turnOf.add(turn.isMissingNode() ? -1 : turn.asInt());
            }
        } catch (JacksonException e) {
            throw new BadInputException("{trace} " + file + ": not JSONL: " + e.getOriginalMessage());
        } catch (CharacterCodingException e) {
            throw new BadInputException("{trace} " + file + ": " + IoReason.NOT_UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + file + ": " + IoReason.of(e), e);
        }
        if (rows.isEmpty()) throw new BadInputException("{trace} " + file + " holds no request");
        rows.sort((a, b) -> Long.compare(a[0], b[0]));
        double[] offsets = new double[rows.size()];
        int[] in = new int[rows.size()];
        int[] out = new int[rows.size()];
        long[][] blockIds = new long[rows.size()][];
        String[] sessionOf = new String[rows.size()];
        int[] turnAt = new int[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            int line = (int) rows.get(i)[3];
            offsets[i] = (rows.get(i)[0] - rows.get(0)[0]) / 1e6;
            in[i] = (int) rows.get(i)[1];
            out[i] = (int) rows.get(i)[2];
            blockIds[i] = hashes.get(line);
            sessionOf[i] = ids.get(line);
            turnAt[i] = turnOf.get(line);
        }
        List<Session> sessions = ids.getFirst() == null ? List.of() : sessions(offsets, in, out, sessionOf, turnAt);
        return new Trace(file, offsets, in, out, blockIds, sessions);
    }

    /** Whether this is a session trace: every line one turn of a session. */
    public boolean hasSessions() {
        return !sessionList.isEmpty();
    }

    /**
     * One session of a session trace: when its first turn arrived (seconds from the trace's first line), and each turn,
     * in order, as offsets from that first turn with its new message's and answer's lengths.
     */
    public record Session(
            String id, double startSeconds, double[] turnOffsetsSeconds, int[] inputTokens, int[] outputTokens) {
        public int turns() {
            return inputTokens.length;
        }
    }

    /**
     * The sessions of a session trace's lines (in timestamp order) in the order their first turns arrived; a session's
     * turns in the order its {@code turn} numbers give (where every line of it has one), else in timestamp order.
     */
    private static List<Session> sessions(
            double[] offsetsSeconds, int[] inputTokens, int[] outputTokens, String[] sessions, int[] turns) {
        java.util.LinkedHashMap<String, List<Integer>> byId = new java.util.LinkedHashMap<>();
        for (int i = 0; i < sessions.length; i++)
            byId.computeIfAbsent(sessions[i], k -> new ArrayList<>()).add(i);
        List<Session> out = new ArrayList<>();
        for (var e : byId.entrySet()) {
            List<Integer> rows = new ArrayList<>(e.getValue());
            if (rows.stream().allMatch(i -> turns[i] >= 0)) rows.sort(java.util.Comparator.comparingInt(i -> turns[i]));
            double start =
                    rows.stream().mapToDouble(i -> offsetsSeconds[i]).min().orElseThrow();
            double[] at = new double[rows.size()];
            int[] in = new int[rows.size()], out2 = new int[rows.size()];
            for (int k = 0; k < rows.size(); k++) {
                at[k] = Math.max(0, offsetsSeconds[rows.get(k)] - start);
                in[k] = inputTokens[rows.get(k)];
                out2[k] = outputTokens[rows.get(k)];
            }
            out.add(new Session(e.getKey(), start, at, in, out2));
        }
        out.sort(java.util.Comparator.comparingDouble(Session::startSeconds));
        return List.copyOf(out);
    }

    /** A session trace's session arrivals (each session's first turn) as an arrival process. */
    public ArrivalProcess.Replay sessionArrivals() {
        double[] starts =
                sessionList().stream().mapToDouble(Session::startSeconds).toArray();
        return new ArrivalProcess.Replay(starts);
    }

    /** A line's hash ids, or null without them; as many as its input's blocks, or it is bad input. */
    private static long[] hashIds(JsonNode ids, int isl, Path file, int line) {
        if (ids.isMissingNode() || ids.isNull()) return null;
        int blocks = (isl + BLOCK_TOKENS - 1) / BLOCK_TOKENS;
        if (!ids.isArray() || ids.size() != blocks) {
            throw new BadInputException("{trace} " + file + " line " + line + ": \"hash_ids\" must list one id per "
                    + BLOCK_TOKENS + "-token block of the input (" + blocks + " for input_length " + isl + ")");
        }
        long[] out = new long[blocks];
        for (int i = 0; i < blocks; i++) {
            if (!ids.get(i).canConvertToLong()) {
                throw new BadInputException("{trace} " + file + " line " + line + ": hash_ids must be integers");
            }
            out[i] = ids.get(i).asLong();
        }
        return out;
    }

    /** Whether any request carries hash ids (its prompts then share text where the ids say). */
    public boolean hasHashIds() {
        for (long[] h : hashIds) if (h != null) return true;
        return false;
    }

    /**
     * The prompt reuse the trace states: of the requests' full blocks with hash ids, the fraction whose id an earlier
     * request (in replay order) already had — what a prefix cache with room for everything would serve, at most.
     */
    public double statedReuse() {
        Set<Long> seen = new HashSet<>();
        long blocks = 0, repeated = 0;
        for (long[] h : hashIds) {
            if (h == null) continue;
            for (long id : h) {
                blocks++;
                if (!seen.add(id)) repeated++;
            }
        }
        return blocks == 0 ? Double.NaN : (double) repeated / blocks;
    }

    public int size() {
        return offsetsSeconds.length;
    }

    /** The trace's arrival times as an arrival process. */
    public ArrivalProcess.Replay arrivals() {
        return new ArrivalProcess.Replay(offsetsSeconds);
    }
}
