package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the client is judged to have limited or bent a measurement, and its timing error bound. */
class ClientHealthTest {
    private static final long MS = 1_000_000L;
    private static final Distribution QUIET = new Distribution(20_000, 0.12, 0.02, 0.1, 0.15, 0.2, 0.6, 3.5, 12);

    /** {@code n} 2-s requests, one every 10 ms, each sent {@code lagMs} late (1 in 40: 5 ms late). */
    private static Summary requests(int n, double lagMs, boolean open) {
        List<RequestRecord> rs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long intended = i * 10 * MS;
            long lag = (long) ((i % 40 == 39 ? 5 : lagMs) * MS);
            long sent = intended + lag;
            long[] chunks = {sent + 100 * MS, sent + 2000 * MS};
            rs.add(new RequestRecord(
                    i,
                    false,
                    intended,
                    sent,
                    chunks[0],
                    chunks[1],
                    chunks,
                    new int[] {1, 1},
                    100,
                    TokenSource.USAGE,
                    2,
                    TokenSource.USAGE,
                    2,
                    200,
                    0,
                    0,
                    RequestRecord.Outcome.COMPLETED,
                    null,
                    null,
                    -1,
                    RequestRecord.Connection.REUSED,
                    100,
                    null,
                    -1));
        }
        return Metrics.summarize(rs, open, List.of());
    }

    @Test
    void aClosedLoopIsNotBoundByAFewLateSendsThatCostItsUsersNoTime() {
        Summary s = requests(400, 0.2, false);
        assertTrue(s.distribution(Metric.SEND_LAG_MS).p99() > 1, "a p99 over 1 ms, as the README's first run had");
        ClientHealth h =
                ClientHealth.assess(s, new LoadModel.Closed(200), new ClientHealth.Observed(QUIET, 0.1, 0.2, 0), true);
        assertFalse(h.clientBound(), h.warnings().toString());
        assertEquals(0.6, h.timingErrorMs(), 1e-9, "closed loop: the scheduling delay alone");
    }

    @Test
    void aClosedLoopWhoseSendsEatTheUsersTimeIsBound() {
        Summary s = requests(400, 60, false);
        ClientHealth h =
                ClientHealth.assess(s, new LoadModel.Closed(200), new ClientHealth.Observed(QUIET, 0.1, 0.2, 0), true);
        assertTrue(h.clientBound());
        assertTrue(
                h.warnings().getFirst().contains("of the users' time"),
                h.warnings().toString());
    }

    @Test
    void anOpenLoopIsBoundByItsSendLagP99AndAddsItToTheTimingError() {
        Summary s = requests(400, 0.2, true);
        ClientHealth h = ClientHealth.assess(
                s,
                new LoadModel.Open(100, new ArrivalProcess.Poisson()),
                new ClientHealth.Observed(QUIET, 0.1, 0.2, 0),
                false);
        assertTrue(h.clientBound());
        assertTrue(
                h.warnings().getFirst().startsWith("send lag p99"), h.warnings().toString());
        assertEquals(0.6 + s.distribution(Metric.SEND_LAG_MS).p99(), h.timingErrorMs(), 1e-9);
    }

    @Test
    void lateTimestampsBindEitherLoop() {
        Distribution busy = new Distribution(20_000, 0.9, 0.02, 0.3, 1.8, 2.6, 3.6, 7.6, 30);
        ClientHealth h = ClientHealth.assess(
                requests(400, 0.2, false),
                new LoadModel.Closed(200),
                new ClientHealth.Observed(busy, 0.1, 0.2, 0),
                true);
        assertTrue(h.clientBound());
        assertTrue(
                h.warnings().getFirst().startsWith("scheduling delay p99 3.60 ms"),
                h.warnings().toString());
    }

    @Test
    void aFewTicksMakeNoVerdictButStillStateTheBound() {
        Distribution brief = new Distribution(150, 0.4, 0.02, 0.1, 0.2, 0.3, 4.2, 4.2, 4.2);
        ClientHealth h = ClientHealth.assess(
                requests(400, 0.2, false),
                new LoadModel.Closed(200),
                new ClientHealth.Observed(brief, 0.1, 0.2, 0),
                true);
        assertFalse(h.clientBound(), "150 ticks: their p99 is one hiccup");
        assertEquals(4.2, h.timingErrorMs(), 1e-9);
    }

    @Test
    void cpuIsJudgedOnlyWhenTheProcessIsTheClientsAlone() {
        Summary s = requests(400, 0.2, false);
        var hot = new ClientHealth.Observed(QUIET, 0.95, 1, 0);
        assertFalse(ClientHealth.assess(s, new LoadModel.Closed(200), hot, true).clientBound());
        assertTrue(ClientHealth.assess(s, new LoadModel.Closed(200), hot, false).clientBound());
    }

    @Test
    void theVirtualClockHasNoClientToJudge() {
        ClientHealth h = ClientHealth.assess(
                requests(40, 0, false), new LoadModel.Closed(20), ClientHealth.Observed.NONE, false);
        assertFalse(h.clientBound());
        assertTrue(Double.isNaN(h.timingErrorMs()));
    }

    @Test
    void workersWithAnUnsureClockOrABoundClientAreNamedAndTheWorstClockJoinsTheTimingError() {
        Summary s = requests(400, 0.2, false);
        ClientHealth h =
                ClientHealth.assess(s, new LoadModel.Closed(200), new ClientHealth.Observed(QUIET, 0.1, 0.2, 0), true);
        assertFalse(h.clientBound(), h.warnings().toString());
        ClientHealth.Observed busy = new ClientHealth.Observed(QUIET, 0.93, 1.0, 0);
        ClientHealth.Observed calm = new ClientHealth.Observed(QUIET, 0.2, 0.3, 0);
        List<WorkerRun> workers = List.of(
                new WorkerRun(0, "http://a:8790", 100, 0.1, 0.3, 0.2, calm, null),
                new WorkerRun(1, "http://b:8790", 100, 4.0, 1.5, -0.5, calm, null),
                new WorkerRun(2, "http://c:8790", 100, 0.0, Double.NaN, Double.NaN, busy, null));
        ClientHealth w = h.withWorkers(workers);
        assertTrue(w.clientBound());
        assertEquals(2, w.warnings().size(), w.warnings().toString());
        assertTrue(
                w.warnings().get(0).startsWith("worker 1's clock is only known to 2.00 ms"),
                w.warnings().get(0));
        assertEquals("worker 2: client CPU 93% > 85%", w.warnings().get(1));
        assertEquals(h.timingErrorMs() + 2.0, w.timingErrorMs(), 1e-9, "worker 1's 1.5 ms uncertainty + 0.5 ms drift");
        assertEquals(h, h.withWorkers(List.of()), "no workers: unchanged");
    }
}
