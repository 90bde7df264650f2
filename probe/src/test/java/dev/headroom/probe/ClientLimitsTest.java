package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.Metrics;
import dev.headroom.model.Summary;
import dev.headroom.sim.http.SimServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client says when it is the bottleneck: a starved client is judged bound, and its timing error stated. */
class ClientLimitsTest {

    @Test
    void aClientStarvedOfCpuIsBoundAndSaysHowLateItsTimestampsAre() throws InterruptedException {
        // Twice as many spinning threads as cores: the probe's own threads wait for the CPU.
        List<Thread> hogs = new ArrayList<>();
        var stop = new AtomicBoolean();
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
            hogs.add(Thread.ofPlatform().daemon(true).start(() -> {
                long x = 0;
                while (!stop.get()) x += System.nanoTime() & 1;
                if (x == 42) System.out.print("");
            }));
        }
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            ProbeResult r = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(50, 64), ProbeSimTest.closed(4, 40, 0), rec -> {});
            Summary s = Metrics.summarize(r.records(), false, List.of());
            ClientHealth h = ClientHealth.assess(s, r.point().load(), r.client(), true);
            assertTrue(r.client().schedulingDelayMs().count() > 100, "the ticker ran all along");
            assertTrue(h.clientBound(), "starved, yet judged healthy: " + h);
            assertTrue(
                    h.warnings().stream().anyMatch(w -> w.startsWith("scheduling delay p99")),
                    h.warnings().toString());
            assertTrue(h.timingErrorMs() > ClientHealth.SCHEDULING_DELAY_P99_LIMIT_MS, "the bound says so: " + h);
        } finally {
            stop.set(true);
            for (Thread t : hogs) t.join();
        }
    }

    @Test
    void anErrorInAUsersThreadStopsTheRunAndReachesTheCaller() {
        AtomicInteger handed = new AtomicInteger();
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            OutOfMemoryError e = assertThrows(
                    OutOfMemoryError.class,
                    () -> new Probe(ProbeSimTest.target(sim))
                            .run(ProbeSimTest.fixed(20, 8), ProbeSimTest.closed(2, 200, 0), rec -> {
                                if (handed.incrementAndGet() == 5) throw new OutOfMemoryError("simulated");
                            }));
            assertEquals("simulated", e.getMessage());
            // The other user's request in flight may finish; nobody sends on.
            assertTrue(handed.get() <= 7, "the run went on after the error: " + handed.get() + " records");
        }
    }

    @Test
    void aQuietClientMeasuresItsSchedulingDelay() {
        try (SimServer sim = SimServer.start(SimServer.Config.loopback(ProbeSimTest.engine()))) {
            ProbeResult r = new Probe(ProbeSimTest.target(sim))
                    .run(ProbeSimTest.fixed(50, 16), ProbeSimTest.closed(1, 10, 0), rec -> {});
            var sched = r.client().schedulingDelayMs();
            assertTrue(sched.count() > 10, "one tick a millisecond: " + sched);
            assertFalse(Double.isNaN(sched.p99()));
            assertTrue(sched.min() >= 0, "a delay, never early: " + sched);
        }
    }
}
