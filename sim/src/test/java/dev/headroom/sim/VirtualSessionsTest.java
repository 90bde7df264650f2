package dev.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
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
import dev.headroom.sim.profile.Profiles;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Sessions on the virtual clock: the same prefix-cache behaviour the HTTP simulator shows (probe's SessionsTest). */
class VirtualSessionsTest {
    private static final int BLOCK = 16;

    private static EngineConfig engine() {
        return EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b"))
                .withNoise(0, 0, 0);
    }

    private static SessionSpec chat(int turns, int isl, int osl, int system, ThinkTime think) {
        return SessionSpec.chat(
                turns, new LengthDistribution.Fixed(isl), new LengthDistribution.Fixed(osl), think, system);
    }

    private static List<RequestRecord> run(EngineConfig engine, LoadModel load, int requests, SessionSpec spec) {
        RunLength length = new RunLength(requests, Double.POSITIVE_INFINITY, 0, 0, 0, 30);
        return new VirtualEngine(engine)
                .measure(new MeasurementRequest(load, Workload.fixed(1, 1), length, 7, null, 0, 0, spec))
                .records();
    }

    private static SessionSummary summary(List<RequestRecord> records, SessionSpec spec, boolean open) {
        SessionRecorder rec = new SessionRecorder(spec, open);
        records.forEach(rec);
        return rec.summary();
    }

    @Test
    void everyTurnResendsTheHistoryAndTheCacheServesTheEarlierAnswers() {
        SessionSpec spec = chat(4, 200, 40, 300, ThinkTime.NONE);
        List<RequestRecord> records = run(engine(), new LoadModel.Closed(2), 8, spec);
        assertEquals(8, records.size());
        Map<Long, List<RequestRecord>> sessions = records.stream()
                .sorted(Comparator.comparingInt(r -> r.turn().turn()))
                .collect(Collectors.groupingBy(r -> r.turn().session()));
        assertEquals(2, sessions.size(), sessions.keySet().toString());
        for (List<RequestRecord> s : sessions.values()) {
            assertEquals(4, s.size());
            for (int t = 1; t < 4; t++) {
                RequestRecord r = s.get(t), before = s.get(t - 1);
                assertEquals(t, r.turn().turn());
                assertEquals(4, r.turn().turns());
                // The prompt grew by exactly the answer and the new message.
                assertEquals(before.promptTokens() + 40 + 200, r.promptTokens(), r.toString());
                // The cache serves the previous prompt and the answer's full blocks (the last token is never fed back).
                int reach = (before.promptTokens() + before.completionTokens() - 1) / BLOCK * BLOCK;
                assertTrue(r.cachedTokens() >= reach, "turn " + t + " cached " + r.cachedTokens() + " < " + reach);
            }
        }
        SessionSummary sum = summary(records, spec, false);
        assertEquals(2, sum.sessions().completed());
        assertEquals(0, sum.turns().getFirst().cachedTokens(), "nothing cached before the first turn");
    }

    @Test
    void laterTurnsStayFastWhileTheCacheHoldsTheHistoryAndSlowDownWhenItCannot() {
        SessionSpec spec = chat(4, 500, 16, 2000, new ThinkTime.Exponential(0.2));
        LoadModel users = new LoadModel.Closed(6);
        List<RequestRecord> roomy = run(engine(), users, 6 * 4 * 4, spec);
        List<RequestRecord> off = run(engine().withPrefixCaching(false), users, 6 * 4 * 4, spec);
        // At 22.4 % of the H100's memory some 6,000 tokens of KV are left: far less than six histories.
        List<RequestRecord> squeezed =
                run(engine().toBuilder().gpuMemoryUtilization(0.224).build(), users, 6 * 4 * 4, spec);
        double[] on = new double[4], none = new double[4];
        for (int t = 0; t < 4; t++) {
            on[t] = summary(roomy, spec, false).turns().get(t).ttftMs().p50();
            none[t] = summary(off, spec, false).turns().get(t).ttftMs().p50();
        }
        String all = "with cache " + Arrays.toString(on) + ", without " + Arrays.toString(none);
        assertTrue(on[3] < 0.6 * none[3], all);
        SessionSummary.Turn roomyLast = summary(roomy, spec, false).turns().get(3),
                squeezedLast = summary(squeezed, spec, false).turns().get(3);
        assertTrue(
                squeezedLast.ttftMs().p50() > 1.5 * roomyLast.ttftMs().p50(),
                "turn 4 ttft p50 " + squeezedLast.ttftMs().p50() + " vs roomy "
                        + roomyLast.ttftMs().p50());
        assertTrue(
                squeezedLast.cachedFraction() < roomyLast.cachedFraction() - 0.2,
                "turn 4 cached " + squeezedLast.cachedFraction() + " vs roomy " + roomyLast.cachedFraction());
    }

    @Test
    void openLoopSessionsArriveOnTheScheduleAndEachRunsItsTurns() {
        SessionSpec spec = chat(3, 100, 20, 0, ThinkTime.NONE);
        List<RequestRecord> records = run(engine(), new LoadModel.Open(2, new ArrivalProcess.Poisson()), 3 * 20, spec);
        SessionSummary sum = summary(records, spec, true);
        assertTrue(sum.sessions().completed() >= 15, sum.sessions().toString());
        // Each session's first turn is its arrival: the first turns' origins are the Poisson schedule, in order.
        double[] firsts = records.stream()
                .filter(r -> r.turn().turn() == 0)
                .mapToDouble(r -> r.intendedNanos() / 1e9)
                .sorted()
                .toArray();
        assertTrue(firsts.length >= 15 && firsts[firsts.length - 1] > 5, Arrays.toString(firsts));
    }

    @Test
    void whatTheVirtualClockDoesNotRunIsRefusedInOneLine() {
        SessionSpec fanOut = new SessionSpec(
                2, new LengthDistribution.Fixed(10), new LengthDistribution.Fixed(10), ThinkTime.NONE, 0, 2, 0, 0);
        var e = assertThrows(BadInputException.class, () -> VirtualEngine.checkSessions(fanOut));
        assertTrue(e.getMessage().contains("fan-out"), e.getMessage());
        SessionSpec replay = new SessionSpec(2, null, null, ThinkTime.NONE, 0, 0, 0, 0);
        assertThrows(BadInputException.class, () -> VirtualEngine.checkSessions(replay));
    }
}
