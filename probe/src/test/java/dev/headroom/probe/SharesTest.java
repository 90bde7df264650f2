package dev.headroom.probe;

import static dev.headroom.probe.VirtualRun.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.Share;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A load point's {@link Share}s, each driven by the real {@link LoadDriver} on a virtual clock: together they send
 * what one process sends — an open loop's global schedule to the nanosecond, a closed loop's users and counts — with
 * indices that never collide.
 */
class SharesTest {

    private static List<RequestRecord> all(MeasurementRequest point, int workers, long durationNanos) throws Exception {
        List<RequestRecord> merged = new ArrayList<>();
        for (int k = 0; k < workers; k++)
            merged.addAll(
                    VirtualRun.of(point, new Share(k, workers), durationNanos).records());
        merged.sort(Comparator.comparingLong(RequestRecord::index));
        return merged;
    }

    @Test
    void openLoopSharesSendTheOneProcessScheduleBetweenThem() throws Exception {
        MeasurementRequest point = Points.of(
                new LoadModel.Open(40, new ArrivalProcess.Poisson()),
                Duration.ZERO,
                0,
                null,
                300,
                Duration.ofSeconds(1),
                10,
                Duration.ofSeconds(2),
                Duration.ofSeconds(30),
                7);
        List<RequestRecord> alone = VirtualRun.of(point, 30 * MS).records();
        for (int workers : new int[] {2, 3, 4}) {
            List<RequestRecord> shared = all(point, workers, 30 * MS);
            assertEquals(alone.size(), shared.size(), workers + " workers: as many requests");
            for (int i = 0; i < alone.size(); i++) {
                assertEquals(alone.get(i).index(), shared.get(i).index());
                assertEquals(alone.get(i).intendedNanos(), shared.get(i).intendedNanos(), "request " + i);
                assertEquals(alone.get(i).sentNanos(), shared.get(i).sentNanos(), "request " + i);
                assertEquals(alone.get(i).warmup(), shared.get(i).warmup(), "request " + i);
            }
        }
        assertEquals(300, alone.stream().filter(r -> !r.warmup()).count());
    }

    @Test
    void closedLoopSharesSplitTheUsersAndTheCountWithIndicesOfTheirOwn() throws Exception {
        MeasurementRequest point = Points.of(
                new LoadModel.Closed(7),
                Duration.ZERO,
                0,
                null,
                100,
                Duration.ZERO,
                10,
                Duration.ofMillis(700),
                Duration.ofSeconds(30),
                3);
        List<RequestRecord> alone = VirtualRun.of(point, 50 * MS).records();
        List<RequestRecord> shared = all(point, 3, 50 * MS);
        assertEquals(
                alone.stream().filter(r -> !r.warmup()).count(),
                shared.stream().filter(r -> !r.warmup()).count());
        assertEquals(100, shared.stream().filter(r -> !r.warmup()).count(), "the count, split exactly");
        assertEquals(10, shared.stream().filter(RequestRecord::warmup).count(), "the warm-up, split exactly");
        Set<Long> indices = new HashSet<>();
        for (RequestRecord r : shared) assertTrue(indices.add(r.index()), "index " + r.index() + " twice");
        int[] users = new int[3];
        for (int k = 0; k < 3; k++)
            users[k] = VirtualRun.of(point, new Share(k, 3), 50 * MS).peakInFlight();
        assertEquals(List.of(3, 2, 2), List.of(users[0], users[1], users[2]), "users 0-6 dealt out by number");
        // each worker's users start when they would alone: user u at u/7 of the ramp
        long firstOfWorker1 = VirtualRun.of(point, new Share(1, 3), 50 * MS).records().stream()
                .mapToLong(RequestRecord::intendedNanos)
                .min()
                .orElseThrow();
        assertEquals(100 * MS, firstOfWorker1, "user 1 of 7 starts 1/7 into a 700 ms ramp");
    }
}
