package dev.headroom.probe;

import static dev.headroom.probe.VirtualRun.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The virtual clock the driver's tests run on: time moves only when every thread of the run waits. */
class VirtualTickerTest {

    @Test
    void sleepersWakeExactlyAtTheirDeadlinesInTheirOrder() throws Exception {
        try (VirtualTicker ticker = new VirtualTicker()) {
            List<String> woke = new CopyOnWriteArrayList<>();
            ticker.run(() -> {
                RunClock clock = new RunClock(ticker);
                List<Thread> threads = new ArrayList<>();
                for (long t : new long[] {300, 100, 200}) {
                    threads.add(clock.start(Thread.ofVirtual(), () -> {
                        try {
                            clock.sleepUntil(t * MS);
                            woke.add(t + "@" + clock.now() / MS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }));
                }
                for (Thread th : threads) th.join();
                return null;
            });
            assertEquals(List.of("100@100", "200@200", "300@300"), woke);
            assertEquals(300 * MS, ticker.now());
        }
    }

    @Test
    void timeStandsStillWhileAnyThreadOfTheRunWorks() throws Exception {
        try (VirtualTicker ticker = new VirtualTicker()) {
            long[] seen = ticker.run(() -> {
                RunClock clock = new RunClock(ticker);
                Thread sleeper = clock.start(Thread.ofVirtual(), () -> {
                    try {
                        clock.sleepUntil(1_000 * MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                long before = clock.now();
                long spinUntil = System.nanoTime() + 50 * MS; // 50 ms of real work while the sleeper waits
                while (System.nanoTime() < spinUntil) Thread.onSpinWait();
                long during = clock.now();
                sleeper.join();
                return new long[] {before, during, clock.now()};
            });
            assertEquals(List.of(0L, 0L, 1_000 * MS), List.of(seen[0], seen[1], seen[2]));
        }
    }

    @Test
    void aThreadItDidNotStartMayNotSleepOnIt() {
        try (VirtualTicker ticker = new VirtualTicker()) {
            assertThrows(IllegalStateException.class, () -> new RunClock(ticker).sleepUntil(MS));
        }
    }
}
