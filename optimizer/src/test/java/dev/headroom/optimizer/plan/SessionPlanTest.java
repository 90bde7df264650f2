package dev.headroom.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.PlanRow;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.SessionShape;
import dev.headroom.model.plan.Traffic;
import dev.headroom.model.plan.WorkloadClass;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plans in active users and in sessions per second, checked against numbers computed by hand. */
class SessionPlanTest {
    /** 4 turns of 256 new tokens and 128-token answers over a 1,000-token system prompt. */
    static final SessionShape CHAT = new SessionShape(4, 256, 128, 1000);

    static Forecast inUsers(double peakUsers) {
        return new Forecast(
                1,
                List.of(WorkloadClass.ofSessions(
                        "assistant",
                        CHAT,
                        LoadUnit.USERS,
                        "ttft:p95<300ms",
                        new Traffic.Parametric(peakUsers, PlannerTest.DIURNAL, PlannerTest.FLAT_WEEK, 0, 1.25))));
    }

    /** 300 active users per replica [280–320], each session lasting 60 s on average. */
    static Capacity users() {
        return new Capacity(
                "h100", "assistant", 300, 280, 320, false, Double.NaN, "test", Double.NaN, LoadUnit.USERS, 60);
    }

    @Test
    void aSessionSendsItsHistoryAgainEveryTurn() {
        // Turn k sends the system prompt, k new messages and k − 1 answers: 4 × 1,000 + 256 × 10 + 128 × 6.
        assertEquals(7328, CHAT.inputTokens(), 1e-9);
        assertEquals(512, CHAT.outputTokens(), 1e-9);
        WorkloadClass c = inUsers(1000).classes().getFirst();
        assertEquals(7328, c.isl(), 1e-9);
        assertEquals(7840, c.tokensPerUnit(), 1e-9);
    }

    @Test
    void activeUsersAreSizedByConcurrentSessionsAndServeOneSessionPerMeanDuration() {
        Plan p = new Planner(Policy.DEFAULT).plan(inUsers(3000), List.of(PlannerTest.H100), List.of(users()));
        PlanRow m = p.rows().getFirst();
        // Peak 3,000 users: ⌈3000 ÷ (300 × 0.8)⌉ + 1 = 13 + 1 = 14; low ⌈3000 ÷ 256⌉ + 1 = 13; high ⌈3750 ÷ 224⌉ + 1 =
        // 18.
        assertEquals(14, m.replicas().point());
        assertEquals(13, m.replicas().low());
        assertEquals(18, m.replicas().high());
        // Users over the month: 3,000 × mean diurnal (11.6 ÷ 24) × 730 user-hours; each user-hour is 60 sessions.
        double sessions = 3000 * 11.6 / 24 * 730 * 3600 / 60.0;
        assertEquals(sessions * 7328, m.inputTokens(), 1);
        assertEquals(sessions * 512, m.outputTokens(), 1);
        // At capacity a replica serves 300 ÷ 60 = 5 sessions/s.
        assertEquals(2.99 / (5 * 3600 * 7840 / 1e6), m.dollarsPerMtokAtCapacity(), 1e-12);
        assertEquals(3000 * 11.6 / 24 * 730 / (14 * 730 * 300.0), m.utilization(), 1e-9);
        assertEquals(LoadUnit.USERS, p.capacities().getFirst().unit());
    }

    @Test
    void aCapacityInUsersServesAClassInSessionsPerSecondByLittlesLaw() {
        Forecast f = new Forecast(
                1,
                List.of(WorkloadClass.ofSessions(
                        "assistant",
                        CHAT,
                        LoadUnit.SESSIONS,
                        "ttft:p95<300ms",
                        new Traffic.Parametric(50, PlannerTest.DIURNAL, PlannerTest.FLAT_WEEK, 0, 1))));
        Plan p = new Planner(Policy.DEFAULT).plan(f, List.of(PlannerTest.H100), List.of(users()));
        Capacity c = p.capacities().getFirst();
        assertEquals(LoadUnit.SESSIONS, c.unit());
        assertEquals(5, c.max(), 1e-12); // 300 users ÷ 60 s
        assertEquals(280 / 60.0, c.ciLow(), 1e-12);
        assertTrue(c.derived());
        // 50 sessions/s at the peak: ⌈50 ÷ (5 × 0.8)⌉ + 1 = 14 — the same fleet as 3,000 users of 60-s sessions.
        assertEquals(14, p.rows().getFirst().replicas().point());
        double sessions = 50 * 11.6 / 24 * 730 * 3600;
        assertEquals(sessions * 512, p.rows().getFirst().outputTokens(), 1);
    }

    @Test
    void requestsAndSessionsDoNotConvertAndUsersNeedASessionDuration() {
        Capacity requests = new Capacity("h100", "assistant", 20, 18, 22, false, Double.NaN, "r.json");
        var e = assertThrows(
                BadInputException.class,
                () -> new Planner(Policy.DEFAULT).plan(inUsers(100), List.of(PlannerTest.H100), List.of(requests)));
        assertTrue(
                e.getMessage().contains("--load-unit sessions")
                        || e.getMessage().contains("search in sessions"),
                e.getMessage());
        Capacity noDuration = new Capacity(
                "h100", "assistant", 5, 5, 5, false, Double.NaN, "y.yaml", Double.NaN, LoadUnit.SESSIONS, Double.NaN);
        var d = assertThrows(
                BadInputException.class,
                () -> new Planner(Policy.DEFAULT).plan(inUsers(100), List.of(PlannerTest.H100), List.of(noDuration)));
        assertTrue(d.getMessage().contains("session_s"), d.getMessage());
        Capacity usersNoDuration = new Capacity(
                "h100",
                "assistant",
                300,
                300,
                300,
                false,
                Double.NaN,
                "y.yaml",
                Double.NaN,
                LoadUnit.USERS,
                Double.NaN);
        var u = assertThrows(
                BadInputException.class,
                () -> new Planner(Policy.DEFAULT)
                        .plan(inUsers(100), List.of(PlannerTest.H100), List.of(usersNoDuration)));
        assertTrue(u.getMessage().contains("session_s"), u.getMessage());
        var missing = assertThrows(
                Planner.MissingCapacityException.class,
                () -> new Planner(Policy.DEFAULT).plan(inUsers(100), List.of(PlannerTest.H100), List.of()));
        assertTrue(
                missing.getMessage().contains("--load-unit sessions --objective max-concurrency --turns 4"),
                missing.getMessage());
    }
}
