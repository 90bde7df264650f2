package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.SessionRecorder;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.Workload;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-turn sessions against the simulator, whose prefix cache keys the blocks of prompts and of answers. */
class SessionsTest {
    private static final int BLOCK = 16;

    private static MeasurementRequest sessions(int users, int requests, SessionSpec spec) {
        RunLength length = new RunLength(requests, Double.POSITIVE_INFINITY, 0, 0, 0, 30);
        return new MeasurementRequest(new LoadModel.Closed(users), Workload.fixed(1, 1), length, 7, null, 0, 0, spec);
    }

    private static SessionSpec chat(int turns, int isl, int osl, int system) {
        return SessionSpec.chat(
                turns, new LengthDistribution.Fixed(isl), new LengthDistribution.Fixed(osl), ThinkTime.NONE, system);
    }

    private static List<RequestRecord> run(EngineConfig engine, MeasurementRequest point) {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(engine))) {
            return new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(1, 1), point, r -> {})
                    .records();
        }
    }

    private static Map<Long, List<RequestRecord>> bySession(List<RequestRecord> records) {
        return records.stream()
                .filter(r -> r.turn() != null)
                .sorted(Comparator.comparingInt((RequestRecord r) -> r.turn().turn())
                        .thenComparingInt(r -> r.turn().call()))
                .collect(Collectors.groupingBy(r -> r.turn().session()));
    }

    @Test
    void everyTurnResendsTheHistoryWithTheServersOwnAnswersAndHitsItsCachedBlocks() {
        List<RequestRecord> records = run(ProbeSimTest.engine(), sessions(2, 8, chat(4, 200, 40, 300)));
        assertEquals(8, records.size());
        Map<Long, List<RequestRecord>> sessions = bySession(records);
        assertEquals(2, sessions.size(), sessions.keySet().toString());
        for (List<RequestRecord> s : sessions.values()) {
            assertEquals(4, s.size());
            for (int t = 0; t < 4; t++) {
                RequestRecord r = s.get(t);
                assertTrue(r.succeeded(), r.toString());
                assertEquals(t, r.turn().turn());
                assertTrue(r.promptTokens() > 0 && r.cachedTokens() >= 0, "usage counted: " + r);
                if (t == 0) continue;
                RequestRecord before = s.get(t - 1);
                // The prompt grew by the answer, the new message and the template around them.
                int grew = r.promptTokens() - before.promptTokens();
                assertTrue(grew >= 40 + 200 && grew <= 40 + 200 + 20, "turn " + t + " grew by " + grew);
                // Had the client resent other text than the server's answer, the hit would stop at the previous
                // prompt's end: it reaches into the answer's blocks (all but the last token, which is never fed back).
                int reach = (before.promptTokens() + before.completionTokens() - 1) / BLOCK * BLOCK;
                assertTrue(r.cachedTokens() >= reach, "turn " + t + " cached " + r.cachedTokens() + " < " + reach);
            }
        }
        // Counts add up: cached over prompt tokens of the requests that reported, per turn.
        SessionRecorder rec = new SessionRecorder(chat(4, 200, 40, 300), false);
        records.forEach(rec);
        SessionSummary summary = rec.summary();
        assertEquals(2, summary.sessions().completed());
        for (SessionSummary.Turn t : summary.turns()) {
            long prompt = 0, cached = 0;
            for (RequestRecord r : records) {
                if (r.turn().turn() == t.turn()) {
                    prompt += r.promptTokens();
                    cached += r.cachedTokens();
                }
            }
            assertEquals(prompt, t.promptTokens());
            assertEquals(cached, t.cachedTokens());
            assertEquals(prompt - cached, t.prefilledTokens());
        }
    }

    private static double turnTtftP50(List<RequestRecord> records, SessionSpec spec, int turn) {
        SessionRecorder rec = new SessionRecorder(spec, false);
        records.forEach(rec);
        return rec.summary().turns().get(turn).ttftMs().p50();
    }

    private static double turnCachedFraction(List<RequestRecord> records, SessionSpec spec, int turn) {
        SessionRecorder rec = new SessionRecorder(spec, false);
        records.forEach(rec);
        return rec.summary().turns().get(turn).cachedFraction();
    }

    @Test
    void laterTurnsStayFastWhileTheCacheHoldsTheHistory() {
        // One user at a time, so no queueing: a turn's TTFT is its own prefill.
        SessionSpec spec = chat(4, 500, 16, 2000);
        MeasurementRequest point = sessions(1, 4 * 3, spec);
        List<RequestRecord> cached = run(ProbeSimTest.engine(), point);
        List<RequestRecord> uncached = run(ProbeSimTest.engine().withPrefixCaching(false), point);
        double[] on = new double[4], off = new double[4];
        for (int t = 0; t < 4; t++) {
            on[t] = turnTtftP50(cached, spec, t);
            off[t] = turnTtftP50(uncached, spec, t);
        }
        String all = "with cache " + java.util.Arrays.toString(on) + ", without " + java.util.Arrays.toString(off);
        // Without a cache every turn prefills its whole history (2,500 to 4,000 tokens): each is slower than the last.
        for (int t = 1; t < 4; t++) assertTrue(off[t] > off[t - 1], all);
        // With one, a turn prefills its new message: the fourth turn takes well under the uncached one.
        assertTrue(on[3] < 0.6 * off[3], all);
        assertTrue(on[3] < 1.3 * on[1], all);
    }

    @Test
    void aCacheTooSmallForTheHistoriesEvictsThemAndLaterTurnsSlowDown() {
        SessionSpec spec = SessionSpec.chat(
                4,
                new LengthDistribution.Fixed(500),
                new LengthDistribution.Fixed(16),
                new ThinkTime.Exponential(0.2),
                2000);
        MeasurementRequest point = sessions(6, 6 * 4 * 2, spec);
        List<RequestRecord> roomy = run(ProbeSimTest.engine(), point);
        // Weights take 16 GB of the H100's 80: at 22.4 % under 1 GB is left for the KV cache, some 6,000 tokens —
        // far less than six histories of up to 4,100 tokens each.
        EngineConfig small =
                ProbeSimTest.engine().toBuilder().gpuMemoryUtilization(0.224).build();
        List<RequestRecord> squeezed = run(small, point);
        double roomyLast = turnTtftP50(roomy, spec, 3), squeezedLast = turnTtftP50(squeezed, spec, 3);
        assertTrue(squeezedLast > 1.5 * roomyLast, "turn 4 ttft p50 " + squeezedLast + " vs roomy " + roomyLast);
        // What the cache served of turn 4's prompts: the history in roomy memory, little but the system prompt in
        // the small one.
        double roomyHit = turnCachedFraction(roomy, spec, 3), squeezedHit = turnCachedFraction(squeezed, spec, 3);
        assertTrue(squeezedHit < roomyHit - 0.2, "turn 4 cached " + squeezedHit + " vs roomy " + roomyHit);
    }

    @Test
    void subCallsGoOutTogetherAndTheirAnswersJoinTheNextTurn() {
        SessionSpec spec = new SessionSpec(
                2, new LengthDistribution.Fixed(100), new LengthDistribution.Fixed(30), ThinkTime.NONE, 200, 3, 1, 0);
        List<RequestRecord> records = run(ProbeSimTest.engine(), sessions(1, 2 * spec.callsPerTurn(), spec));
        List<RequestRecord> s = bySession(records).get(0L);
        assertEquals(2 * 5, s.size(), s.toString());
        RequestRecord first = s.get(0), tool = s.get(4), next = s.get(5);
        assertEquals(0, first.turn().call());
        // Sub-calls 1..3: the system prompt and a task of their own, sent after the tool round.
        for (int k = 1; k <= 3; k++) {
            RequestRecord sub = s.get(k);
            assertEquals(k, sub.turn().call());
            assertTrue(Math.abs(sub.promptTokens() - first.promptTokens()) <= 4, sub + " vs " + first);
            assertTrue(sub.sentNanos() >= tool.endNanos(), "sub-calls follow the tool round");
        }
        long sentTogether = s.subList(1, 4).stream()
                        .mapToLong(RequestRecord::sentNanos)
                        .max()
                        .getAsLong()
                - s.subList(1, 4).stream()
                        .mapToLong(RequestRecord::sentNanos)
                        .min()
                        .getAsLong();
        long oneCall = s.get(1).endNanos() - s.get(1).sentNanos();
        assertTrue(sentTogether < oneCall, "sent in parallel: spread " + sentTogether + " ns, one call " + oneCall);
        // The tool round resends the history with a short tool result.
        assertEquals(4, tool.turn().call());
        int toolGrew = tool.promptTokens() - first.promptTokens();
        assertTrue(toolGrew >= 30 + SessionSpec.TOOL_RESULT_TOKENS && toolGrew <= 30 + 40, "tool grew " + toolGrew);
        // The next turn carries the tool round's answer and all three sub-answers.
        assertEquals(1, next.turn().turn());
        int grew = next.promptTokens() - tool.promptTokens();
        assertTrue(grew >= 30 + 3 * 30 + 100, "next turn grew by " + grew);
    }

    @Test
    void aShareGptConversationIsReplayedWholeTurnByTurn(@TempDir Path tmp) throws IOException {
        Path f = tmp.resolve("sharegpt.json");
        Files.writeString(
                f, """
                [{"id": "a", "conversations": [
                   {"from": "human", "value": "How do tides work? Explain the moon's part in them."},
                   {"from": "gpt", "value": "%s"},
                   {"from": "human", "value": "And the sun's part?"},
                   {"from": "gpt", "value": "%s"},
                   {"from": "human", "value": "Why two tides a day?"},
                   {"from": "gpt", "value": "%s"}]},
                 {"id": "b", "conversations": [
                   {"from": "human", "value": "Name three prime numbers."},
                   {"from": "gpt", "value": "%s"},
                   {"from": "human", "value": "Now three more, larger."},
                   {"from": "gpt", "value": "%s"}]}]
                """.formatted("x".repeat(40), "x".repeat(80), "x".repeat(120), "x".repeat(24), "x".repeat(48)));
        Dataset d = Dataset.load(f);
        assertEquals(
                List.of(3, 2),
                d.conversations().stream().map(Dataset.Conversation::turns).toList());
        SessionSpec spec = new SessionSpec(3, new LengthDistribution.Fixed(1), null, ThinkTime.NONE, 0, 0, 0, 0);
        RunLength length = new RunLength(5, Double.POSITIVE_INFINITY, 0, 0, 0, 30);
        MeasurementRequest point =
                new MeasurementRequest(new LoadModel.Closed(1), Workload.fixed(1, 1), length, 7, null, 0, 0, spec);
        WorkloadSpec w = new WorkloadSpec(new LengthDistribution.Fixed(1), null, true, 0, d, null, null);
        List<RequestRecord> records;
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            records = new Probe(ProbeSimTest.target(sim)).run(w, point, r -> {}).records();
        }
        Map<Long, List<RequestRecord>> sessions = bySession(records);
        assertEquals(2, sessions.size(), records.toString());
        // Each session is one conversation, whole: its own number of turns, each answer as long as the recorded one.
        Map<Integer, List<Integer>> answersByTurns = sessions.values().stream()
                .collect(Collectors.toMap(
                        s -> s.size(),
                        s -> s.stream().map(RequestRecord::completionTokens).toList()));
        assertEquals(Map.of(3, List.of(10, 20, 30), 2, List.of(6, 12)), answersByTurns);
        for (List<RequestRecord> s : sessions.values()) {
            for (int t = 0; t < s.size(); t++) {
                assertEquals(s.size(), s.get(t).turn().turns(), s.get(t).toString());
                assertTrue(s.get(t).succeeded(), s.get(t).toString());
                if (t > 0) {
                    // The history holds the answer before: the prompt grew by it and the next message.
                    int grew = s.get(t).promptTokens() - s.get(t - 1).promptTokens();
                    assertTrue(grew > s.get(t - 1).completionTokens(), "turn " + t + " grew by " + grew);
                }
            }
        }
        SessionRecorder rec = new SessionRecorder(spec, false);
        records.forEach(rec);
        assertEquals(2, rec.summary().sessions().completed(), "a two-turn conversation completes at its second turn");
    }

    @Test
    void anOpenLoopSessionRunsToItsEndWhenTheNextArrivalFallsAfterTheRun() {
        // One session every 10 s, a 3-s run: the first session's later turns are still sent (a bug once ended the
        // run when the pacer found the next arrival past its end).
        RunLength length = new RunLength(0, 3, 0, 0, 0, 30);
        MeasurementRequest point = new MeasurementRequest(
                new LoadModel.Open(0.1, new ArrivalProcess.Constant()),
                Workload.fixed(1, 1),
                length,
                7,
                null,
                0,
                0,
                chat(3, 100, 16, 0));
        List<RequestRecord> s = bySession(run(ProbeSimTest.engine(), point)).get(0L);
        assertEquals(3, s.size(), String.valueOf(s));
        assertEquals(0, s.get(0).intendedNanos(), "the first turn is timed from its arrival slot");
    }

    @Test
    void historiesBeyondTheContextDropTheirOldestTurnsAndSaySo() {
        SessionSpec spec = new SessionSpec(
                6, new LengthDistribution.Fixed(400), new LengthDistribution.Fixed(50), ThinkTime.NONE, 0, 0, 0, 1500);
        List<RequestRecord> s =
                bySession(run(ProbeSimTest.engine(), sessions(1, 6, spec))).get(0L);
        assertEquals(6, s.size());
        assertEquals(0, s.get(0).turn().droppedTurns());
        assertTrue(s.get(5).turn().droppedTurns() >= 2, s.get(5).toString());
        for (RequestRecord r : s) {
            assertTrue(r.succeeded(), r.toString());
            assertTrue(r.promptTokens() + 50 <= 1500 + 40, "prompt " + r.promptTokens() + " within the context");
        }
    }
}
