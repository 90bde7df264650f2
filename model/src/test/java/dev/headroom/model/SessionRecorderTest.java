package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SessionRecorderTest {
    private static final long MS = 1_000_000;

    /** Two turns, each its own request and one sub-call. */
    private static final SessionSpec SPEC = new SessionSpec(
            2, new LengthDistribution.Fixed(100), new LengthDistribution.Fixed(10), ThinkTime.NONE, 0, 1, 0, 0);

    private static RequestRecord call(
            long index, long session, int turn, int call, long startMs, int prompt, int cached) {
        long[] tokens = {(startMs + 20) * MS, (startMs + 30) * MS};
        return RequestRecord.completed(
                        index,
                        startMs * MS,
                        startMs * MS,
                        tokens,
                        (startMs + 30) * MS,
                        prompt,
                        TokenSource.USAGE,
                        2,
                        0,
                        cached)
                .withTurn(new SessionTurn(session, turn, call, 0, 2));
    }

    @Test
    void sessionsAreCountedByHowTheyEndedAndTurnsByIndex() {
        SessionRecorder r = new SessionRecorder(SPEC, false);
        // Session 0: both turns and both sub-calls complete.
        r.accept(call(0, 0, 0, 0, 0, 100, 0));
        r.accept(call(1, 0, 0, 1, 40, 100, 0));
        r.accept(call(2, 0, 1, 0, 80, 240, 96));
        r.accept(call(3, 0, 1, 1, 120, 100, 0));
        // Session 1: its first turn fails, so it ends there.
        r.accept(RequestRecord.failed(4, 0, 0, 5 * MS, 100, 10, 500, ErrorKind.HTTP_5XX, "boom")
                .withTurn(new SessionTurn(1, 0, 0, 0, 2)));
        // Session 2: still on its first turn when the run ends.
        r.accept(call(5, 2, 0, 0, 0, 100, 0));
        // Session 3 began in the warm-up: in no session count, but its measured sub-call counts by turn.
        r.accept(call(6, 3, 0, 0, 0, 100, 0).asWarmup());
        r.accept(call(7, 3, 0, 1, 40, 100, 0));
        SessionSummary s = r.summary();
        assertEquals(new SessionSummary.Sessions(3, 1, 1, 1, 1), s.sessions(), "session 3 began in the warm-up");
        assertEquals(new SessionSummary.Calls(3, 0), s.subCalls(), "every measured sub-call, session 3's too");
        assertEquals(0.150, s.durationS().p50(), 0.001, "from the first turn's send to the last call's end");
        assertEquals(2, s.turns().size());
        SessionSummary.Turn first = s.turns().get(0), second = s.turns().get(1);
        assertEquals(2, first.completed());
        assertEquals(1, first.failed());
        assertEquals(1, second.completed());
        assertEquals(20, second.ttftMs().p50(), 0.1);
        assertEquals(10, second.itlMs().p50(), 0.1, "one gap of 10 ms between its two chunks");
        assertEquals(1, second.itlMs().count());
        assertEquals(240, second.promptTokens());
        assertEquals(96, second.cachedTokens());
        assertEquals(144, second.prefilledTokens());
        assertEquals(0.4, second.cachedFraction(), 1e-9);
    }

    @Test
    void aGoodSessionMetEverySloWithEveryRequest() {
        for (String slo : new String[] {"ttft:p95<100ms", "ttft:p95<10ms"}) {
            SessionRecorder r = new SessionRecorder(SPEC, false, List.of(Slo.parse(slo)));
            r.accept(call(0, 0, 0, 0, 0, 100, 0));
            r.accept(call(1, 0, 0, 1, 40, 100, 0));
            r.accept(call(2, 0, 1, 0, 80, 240, 96));
            r.accept(call(3, 0, 1, 1, 120, 100, 0));
            SessionSummary s = r.summary(10);
            long good = slo.equals("ttft:p95<100ms") ? 1 : 0; // every call's ttft is 20 ms
            assertEquals(1, s.sessions().completed(), slo);
            assertEquals(good, s.sessions().good(), slo);
            assertEquals(good / 10.0, s.goodputSessionsPerS(), 1e-12, slo);
        }
    }

    /** Four complete sessions of {@link #SPEC} lasting 150, 250, 350 and 450 ms. */
    private static List<RequestRecord> fourSessions() {
        List<RequestRecord> out = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long stretch = 100L * i; // the last turn's calls start later in each session
            out.add(call(4 * i, i, 0, 0, 0, 100, 0));
            out.add(call(4 * i + 1, i, 0, 1, 40, 100, 0));
            out.add(call(4 * i + 2, i, 1, 0, 80 + stretch, 240, 96));
            out.add(call(4 * i + 3, i, 1, 1, 120 + stretch, 100, 0));
        }
        return out;
    }

    @Test
    void aSessionSloJudgesWholeSessionsByTheirDuration() {
        Slo slo = Slo.parse("session:p50<0.3s");
        assertEquals("session:p50<300ms", slo.text());
        SessionRecorder r = new SessionRecorder(SPEC, false, List.of(slo, Slo.parse("ttft:p95<100ms")));
        fourSessions().forEach(r);
        SessionSummary s = r.summary(10);
        assertEquals(4, s.sessions().completed());
        assertEquals(2, s.sessions().good(), "the 150- and 250-ms sessions");
        List<Summary.SloResult> judged = r.sloResults();
        assertEquals(1, judged.size(), "only the session SLO: the requests' own are judged over requests");
        assertEquals(250, judged.getFirst().observed(), 0.5, "p50 of 150, 250, 350, 450 ms by nearest rank");
        assertTrue(judged.getFirst().pass());
        SessionRecorder strict = new SessionRecorder(SPEC, false, List.of(Slo.parse("session:max<400ms")));
        fourSessions().forEach(strict);
        assertEquals(false, strict.sloResults().getFirst().pass());
        assertEquals(450, strict.sloResults().getFirst().observed(), 0.5);
        assertEquals(
                List.of(150.0, 250.0, 350.0, 450.0),
                java.util.Arrays.stream(SessionRecorder.durationsMs(fourSessions(), SPEC, false))
                        .boxed()
                        .toList());
        // A request carries no session duration: the request goodput ignores a session SLO.
        assertTrue(Metrics.isGood(fourSessions().getFirst(), false, List.of(Slo.parse("session:p50<1ms"))));
        var e = assertThrows(
                BadInputException.class, () -> Slo.requireSessionsFor(List.of(Slo.parse("session:p95<60s")), false));
        assertTrue(
                e.getMessage().contains("session:p95<60000ms") && e.getMessage().contains("sessions"), e.getMessage());
    }

    @Test
    void thinkTimesParseSampleAndRefuseNonsenseInOneLine() {
        assertEquals(new ThinkTime.Fixed(2), ThinkTime.parse("2s"));
        assertEquals(new ThinkTime.Fixed(0.5), ThinkTime.parse("500ms"));
        assertEquals(new ThinkTime.Exponential(60), ThinkTime.parse("exp:1m"));
        assertEquals(new ThinkTime.Uniform(1, 3), ThinkTime.parse("uniform:1s,3s"));
        ThinkTime ln = ThinkTime.parse("lognormal:4s,2s");
        assertEquals("lognormal:4s,2s", ln.text());
        SplittableRandom rng = new SplittableRandom(1);
        double sum = 0;
        for (int i = 0; i < 20_000; i++) {
            double v = ln.sampleSeconds(rng);
            assertTrue(v > 0);
            sum += v;
        }
        assertEquals(4, sum / 20_000, 0.15, "the log-normal's mean is the one asked for");
        for (String bad : new String[] {"2", "exp:", "gauss:1s", "uniform:3s,1s", "exp:-1s", "exp:1s,2s"}) {
            BadInputException e = assertThrows(BadInputException.class, () -> ThinkTime.parse(bad), bad);
            assertTrue(e.getMessage().contains("think-time"), e.getMessage());
            assertEquals(1, e.getMessage().lines().count());
        }
    }
}
