package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.sim.http.SimServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetAndTraceTest {

    @Test
    void jsonlDatasetWithPromptsAndMessages(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("d.jsonl");
        Files.writeString(
                f,
                "{\"prompt\":\"hello world\",\"max_tokens\":7}\n\n"
                        + "{\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\","
                        + "\"content\":\"hi\"}]}\n");
        Dataset d = Dataset.load(f);
        assertEquals(2, d.entries().size());
        assertEquals(7, d.entries().get(0).maxTokens());
        assertEquals("system", d.entries().get(1).messages().get(0).role());
    }

    @Test
    void shareGptTakesTheFirstHumanTurnAndEstimatesTheReplyLength(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("sharegpt.json");
        Files.writeString(
                f,
                "[{\"id\":\"a\",\"conversations\":[{\"from\":\"human\",\"value\":\"Why is the sky blue?\"},"
                        + "{\"from\":\"gpt\",\"value\":\"" + "x".repeat(400)
                        + "\"}]},{\"id\":\"b\",\"conversations\":[]}]");
        Dataset d = Dataset.load(f);
        assertEquals(1, d.entries().size(), "a conversation with no human turn is skipped");
        assertEquals(100, d.entries().getFirst().maxTokens());
    }

    @Test
    void badDatasetsNameTheFileAndTheProblem(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("bad.jsonl");
        Files.writeString(f, "{\"text\":\"no prompt here\"}\n");
        var e = assertThrows(IllegalArgumentException.class, () -> Dataset.load(f));
        assertTrue(e.getMessage().contains("bad.jsonl") && e.getMessage().contains("line 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dataset.load(tmp.resolve("missing.jsonl")));
    }

    @Test
    void datasetPromptsAreSentAndCycledWithANonce(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("d.jsonl");
        Files.writeString(
                f, "{\"prompt\":\"one two three\",\"max_tokens\":4}\n{\"prompt\":\"four five\",\"max_tokens\":6}\n");
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            var w = new WorkloadSpec(new LengthDistribution.Fixed(1), null, true, 0, Dataset.load(f), null, null);
            ProbeResult r = new Probe(ProbeSimTest.target(sim)).run(w, ProbeSimTest.closed(1, 5, 0), rec -> {});
            assertEquals(5, r.records().size());
            assertTrue(
                    r.records().stream().allMatch(RequestRecord::succeeded),
                    r.records().toString());
            assertTrue(r.records().stream().allMatch(x -> x.completionTokens() == 4 || x.completionTokens() == 6));
            assertTrue(r.inputLength().startsWith("dataset d.jsonl"));
        }
    }

    /** The whole trace, at its recorded arrival times. */
    private static MeasurementRequest replay(Trace t) {
        return Points.of(
                new LoadModel.Open(t.arrivals().meanRate(), t.arrivals()),
                Duration.ZERO,
                0,
                null,
                t.size(),
                Duration.ZERO,
                0,
                Duration.ZERO,
                Duration.ofSeconds(10),
                1);
    }

    @Test
    void traceReplaysArrivalTimesAndLengths(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("t.jsonl");
        StringBuilder b = new StringBuilder();
        // Out of order on purpose: replay sorts by timestamp.
        for (int i : new int[] {3, 0, 2, 1, 4}) {
            b.append("{\"timestamp\":")
                    .append(1000 + i * 100)
                    .append(",\"input_length\":")
                    .append(50 + i)
                    .append(",\"output_length\":")
                    .append(3 + i)
                    .append(",\"hash_ids\":[1]}\n");
        }
        Files.writeString(f, b);
        Trace t = Trace.load(f);
        assertEquals(5, t.size());
        assertEquals(0.4, t.offsetsSeconds()[4], 1e-9);
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            var w = new WorkloadSpec(new LengthDistribution.Fixed(1), null, true, 0, null, t, null);
            var plan = replay(t);
            List<RequestRecord> rs =
                    new Probe(ProbeSimTest.target(sim)).run(w, plan, rec -> {}).records();
            assertEquals(5, rs.size());
            for (int i = 0; i < 5; i++) {
                assertEquals(i * 100_000_000L, rs.get(i).intendedNanos(), "arrival " + i);
                assertEquals(50 + i, rs.get(i).promptTokens());
                assertEquals(3 + i, rs.get(i).completionTokens());
            }
        }
    }

    @Test
    void aTracesHashIdsSharePromptTextBlockForBlockAsTheTraceSays(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("mooncake.jsonl");
        Files.writeString(f, """
                {"timestamp": 0, "input_length": 1400, "output_length": 4, "hash_ids": [7, 8, 9]}
                {"timestamp": 300, "input_length": 1300, "output_length": 4, "hash_ids": [7, 8, 10]}
                {"timestamp": 600, "input_length": 700, "output_length": 4, "hash_ids": [11, 12]}
                {"timestamp": 900, "input_length": 600, "output_length": 4, "hash_ids": [7, 13]}
                """);
        Trace t = Trace.load(f);
        assertEquals(3.0 / 10, t.statedReuse(), 1e-9, "blocks 7, 8 and 7 again repeat an earlier request's");
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            var w = new WorkloadSpec(new LengthDistribution.Fixed(1), null, true, 0, null, t, null);
            var plan = replay(t);
            ProbeResult r = new Probe(ProbeSimTest.target(sim)).run(w, plan, rec -> {});
            List<RequestRecord> rs = r.records();
            assertEquals(
                    List.of(1400, 1300, 700, 600),
                    rs.stream().map(RequestRecord::promptTokens).toList());
            // The simulator caches 16-token blocks: the second request finds blocks 7 and 8 (1,024 tokens and the
            // template and nonce before them), the third nothing but those, the fourth block 7.
            assertEquals(0, rs.get(0).cachedTokens());
            assertTrue(
                    Math.abs(rs.get(1).cachedTokens() - 1024) <= 32, rs.get(1).toString());
            assertTrue(rs.get(2).cachedTokens() <= 32, rs.get(2).toString());
            assertTrue(Math.abs(rs.get(3).cachedTokens() - 512) <= 32, rs.get(3).toString());
            assertTrue(w.describe().contains("hash_ids: 30.0 % of blocks repeat"), w.describe());
        }
        Path bad = tmp.resolve("bad.jsonl");
        Files.writeString(bad, "{\"timestamp\":0,\"input_length\":1400,\"output_length\":4,\"hash_ids\":[1,2]}\n");
        var e = assertThrows(IllegalArgumentException.class, () -> Trace.load(bad));
        assertTrue(
                e.getMessage().contains("line 1") && e.getMessage().contains("3 for input_length 1400"),
                e.getMessage());
    }

    @Test
    void badTraceLinesAreNamed(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("t.jsonl");
        Files.writeString(f, "{\"timestamp\":1,\"input_length\":5,\"output_length\":5}\n{\"timestamp\":\"soon\"}\n");
        var e = assertThrows(IllegalArgumentException.class, () -> Trace.load(f));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertEquals(ErrorKind.CONNECT.wireName(), "connect");
    }
}
