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
import java.util.List;

/**
 * A request trace to replay, Mooncake style: JSONL lines of {@code timestamp} (milliseconds), {@code input_length}
 * and {@code output_length} (also {@code isl}/{@code osl}); other keys (e.g. {@code hash_ids}) are ignored.
 * Lines are replayed in timestamp order, at their recorded offsets from the first.
 */
public record Trace(Path file, double[] offsetsSeconds, int[] inputTokens, int[] outputTokens) {

    public static Trace load(Path file) {
        if (!Files.isRegularFile(file)) throw new BadInputException("{trace} " + file + ": no such file");
        ObjectMapper json = new ObjectMapper();
        List<long[]> rows = new ArrayList<>();
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
                rows.add(new long[] {Math.round(ts.asDouble() * 1000), isl.asInt(), osl.asInt()});
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
        for (int i = 0; i < rows.size(); i++) {
            offsets[i] = (rows.get(i)[0] - rows.get(0)[0]) / 1e6;
            in[i] = (int) rows.get(i)[1];
            out[i] = (int) rows.get(i)[2];
        }
        return new Trace(file, offsets, in, out);
    }

    public int size() {
        return offsetsSeconds.length;
    }

    /** The trace's arrival times as an arrival process. */
    public ArrivalProcess.Replay arrivals() {
        return new ArrivalProcess.Replay(offsetsSeconds);
    }
}
