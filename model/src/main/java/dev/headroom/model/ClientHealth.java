package dev.headroom.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the client itself may have limited the measurement, and why.
 *
 * @param sendLagP99Ms   p99 of actual − intended send time
 * @param cpuUtil        mean process CPU over the run, fraction of all cores
 * @param gcPauseMaxMs   longest GC pause
 * @param clientBound    true when any threshold was crossed
 * @param warnings       the reasons, in words
 */
public record ClientHealth(
        double sendLagP99Ms,
        double cpuUtil,
        double cpuMax,
        double gcPauseMaxMs,
        boolean clientBound,
        List<String> warnings) {
    public static final double SEND_LAG_P99_LIMIT_MS = 1.0;
    public static final double CPU_LIMIT = 0.85;
    public static final double GC_PAUSE_LIMIT_MS = 10.0;

    /**
     * As {@link #assess}, with CPU reported but not judged when {@code sharedProcess}: beside an in-process server
     * (the embedded simulator) the process's CPU is not the client's alone.
     */
    public static ClientHealth assess(
            double sendLagP99Ms, double cpuUtil, double cpuMax, double gcPauseMaxMs, boolean sharedProcess) {
        ClientHealth h = assess(sendLagP99Ms, sharedProcess ? Double.NaN : cpuUtil, cpuMax, gcPauseMaxMs);
        return new ClientHealth(h.sendLagP99Ms(), cpuUtil, h.cpuMax(), h.gcPauseMaxMs(), h.clientBound(), h.warnings());
    }

    /** Applies the thresholds: send lag p99 > 1 ms, CPU > 85 %, a GC pause > 10 ms. */
    public static ClientHealth assess(double sendLagP99Ms, double cpuUtil, double cpuMax, double gcPauseMaxMs) {
        List<String> w = new ArrayList<>();
        if (sendLagP99Ms > SEND_LAG_P99_LIMIT_MS) {
            w.add(String.format(
                    Locale.ROOT,
                    "send lag p99 %.2f ms > %.0f ms: requests left late",
                    sendLagP99Ms,
                    SEND_LAG_P99_LIMIT_MS));
        }
        if (cpuUtil > CPU_LIMIT) {
            w.add(String.format(Locale.ROOT, "client CPU %.0f%% > %.0f%%", cpuUtil * 100, CPU_LIMIT * 100));
        }
        if (gcPauseMaxMs > GC_PAUSE_LIMIT_MS) {
            w.add(String.format(Locale.ROOT, "GC pause %.1f ms > %.0f ms", gcPauseMaxMs, GC_PAUSE_LIMIT_MS));
        }
        return new ClientHealth(sendLagP99Ms, cpuUtil, cpuMax, gcPauseMaxMs, !w.isEmpty(), List.copyOf(w));
    }
}
