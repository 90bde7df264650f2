package dev.headroom.probe;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * @param hashIds each request's block ids, or null for a request (or a trace) without them
 */
public record Trace(Path file, double[] offsetsSeconds, int[] inputTokens, int[] outputTokens, long[][] hashIds) {
    /** Tokens per hash id in Mooncake's traces. */
    public static final int BLOCK_TOKENS = 512;

    public static Trace load(Path file) {
        if (!Files.isRegularFile(file)) throw new BadInputException("{trace} " + file + ": no such file");
        ObjectMapper json = new ObjectMapper();
        List<long[]> rows = new ArrayList<>();
        List<long[]> hashes = new ArrayList<>();
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
                rows.add(new long[] {Math.round(ts.asDouble() * 1000), isl.asInt(), osl.asInt(), hashes.size()});
                hashes.add(hashIds(o.path("hash_ids"), isl.asInt(), file, n));
            }
        } catch (JacksonException e) {
            throw new BadInputException("{trace} " + file + ": not JSONL: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + file + ": " + e.getMessage(), e);
        }
        if (rows.isEmpty()) throw new BadInputException("{trace} " + file + " holds no request");
        rows.sort((a, b) -> Long.compare(a[0], b[0]));
        double[] offsets = new double[rows.size()];
        int[] in = new int[rows.size()];
        int[] out = new int[rows.size()];
        long[][] ids = new long[rows.size()][];
        for (int i = 0; i < rows.size(); i++) {
            offsets[i] = (rows.get(i)[0] - rows.get(0)[0]) / 1e6;
            in[i] = (int) rows.get(i)[1];
            out[i] = (int) rows.get(i)[2];
            ids[i] = hashes.get((int) rows.get(i)[3]);
        }
        return new Trace(file, offsets, in, out, ids);
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
