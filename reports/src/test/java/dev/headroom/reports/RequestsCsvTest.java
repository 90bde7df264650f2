package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.headroom.model.ErrorKind;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.TokenSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestsCsvTest {
    /**
     * A request with every optional field set: a response id, a session turn, a slot wait, a connection, a user.
     */
    private static RequestRecord full() {
        RequestRecord r = RequestRecord.completed(
                3,
                1_000_000_000L,
                1_000_000_000L,
                new long[] {1_250_000_000L, 1_262_345_678L},
                1_262_400_000L,
                128,
                TokenSource.SERVER,
                2,
                0,
                64);
        r = r.afterSlotWait(7_654_321L).withTurn(new SessionTurn(5, 1, 2, 1, 4));
        return new RequestRecord(
                r.index(),
                r.warmup(),
                r.intendedNanos(),
                r.sentNanos(),
                r.firstTokenNanos(),
                r.endNanos(),
                r.chunkNanos(),
                r.chunkTokens(),
                r.promptTokens(),
                r.promptSource(),
                r.completionTokens(),
                r.completionSource(),
                r.requestedOutputTokens(),
                r.httpStatus(),
                r.preemptions(),
                r.slotWaitNanos(),
                r.outcome(),
                r.failure(),
                "chatcmpl-42",
                r.cachedTokens(),
                RequestRecord.Connection.REUSED,
                r.requestedInputTokens(),
                r.turn(),
                7);
    }

    @Test
    void everyFieldOfRequestsJsonlButTheChunkTimesIsAColumnWithTheSameValue(@TempDir Path tmp) throws IOException {
        Path csv = tmp.resolve("requests.csv"), jsonl = tmp.resolve("requests.jsonl");
        RequestRecord failed = RequestRecord.failed(
                4, 2_000_000_000L, 2_000_000_000L, 2_100_000_000L, 64, 16, 503, ErrorKind.forStatus(503), "busy");
        try (RequestsCsv c = new RequestsCsv(csv);
                RequestsJsonl j = new RequestsJsonl(jsonl)) {
            for (RequestRecord r : List.of(full(), failed)) {
                c.append(r);
                j.append(r);
            }
        }
        CsvSchema header = CsvSchema.emptySchema().withHeader();
        List<Map<String, String>> rows;
        try (MappingIterator<Map<String, String>> it =
                new CsvMapper().readerFor(Map.class).with(header).readValues(csv.toFile())) {
            rows = it.readAll();
        }
        List<String> lines = Files.readAllLines(jsonl);
        assertEquals(2, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode line = new ObjectMapper().readTree(lines.get(i));
            Map<String, String> row = rows.get(i);
            for (var f : line.properties()) {
                if (f.getKey().startsWith("chunk_")) continue;
                assertTrue(row.containsKey(f.getKey()), "requests.csv has a column " + f.getKey());
                String want = f.getValue().isNull() ? "" : f.getValue().asText();
                assertEquals(want, row.get(f.getKey()), "row " + i + " " + f.getKey());
            }
            // What requests.jsonl leaves out is an empty cell.
            for (var cell : row.entrySet()) {
                if (!line.has(cell.getKey())) assertEquals("", cell.getValue(), "row " + i + " " + cell.getKey());
            }
        }
        assertEquals("chatcmpl-42", rows.getFirst().get("response_id"));
        assertEquals("7.654321", rows.getFirst().get("slot_wait_ms"));
        assertEquals("5", rows.getFirst().get("session"));
        assertEquals("7", rows.getFirst().get("user"));
    }
}
