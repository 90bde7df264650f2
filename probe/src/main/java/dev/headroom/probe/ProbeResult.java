package dev.headroom.probe;

import dev.headroom.model.ClientHealth;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import java.util.List;

/**
 * Everything one probe run produced.
 *
 * @param target       the target, with the model resolved
 * @param inputLength  how prompt lengths were hit (server /tokenize, or the stated approximation)
 * @param records      every request, warm-up included, in index order
 * @param peakInFlight most requests in flight at once
 * @param startEpochMicros Unix-epoch microseconds of run time 0 (record times are nanoseconds after it)
 * @param client       what the client observed of itself: scheduling delay, CPU (mean and max), longest GC pause
 * @param promptSalt   the salt this run's prompts were made with (the probe's salt and the run's number)
 * @param connections  how connections were used, and what was learned about the server's
 */
public record ProbeResult(
        Target target,
        MeasurementRequest point,
        WorkloadSpec workload,
        String inputLength,
        List<RequestRecord> records,
        int peakInFlight,
        long startEpochMicros,
        double elapsedSeconds,
        ClientHealth.Observed client,
        String promptSalt,
        String connections) {}
