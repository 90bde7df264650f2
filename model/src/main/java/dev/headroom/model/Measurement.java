package dev.headroom.model;

import java.util.List;

/**
 * Every request of one load point, as measured.
 *
 * @param records   one per request, in index order; none when they were streamed to the caller instead
 * @param elapsedNanos wall (or virtual) time from the first intended start to the last end
 * @param simulated true when produced by the simulator's virtual clock rather than a real server
 * @param seed      the seed the run used
 * @param notes     how an HTTP measurement was made (null on the virtual clock)
 */
public record Measurement(
        MeasurementRequest request,
        List<RequestRecord> records,
        long elapsedNanos,
        boolean simulated,
        long seed,
        Notes notes) {
    public Measurement {
        records = List.copyOf(records);
    }

    /** A measurement with nothing to say about how it was made. */
    public Measurement(
            MeasurementRequest request, List<RequestRecord> records, long elapsedNanos, boolean simulated, long seed) {
        this(request, records, elapsedNanos, simulated, seed, null);
    }

    /** The same measurement with these records. */
    public Measurement withRecords(List<RequestRecord> kept) {
        return new Measurement(request, kept, elapsedNanos, simulated, seed, notes);
    }

    /**
     * How the prompts and connections of an HTTP measurement were made, as {@link RunInfo} records them, and how busy
     * the client was while it ran.
     *
     * @param model       the model the requests named (resolved from the server's list when not given)
     * @param inputLength how prompt lengths were hit
     * @param promptSalt  what made its prompts its own
     * @param connections how connections were used, and what was learned of the server's
     * @param startEpochMicros Unix-epoch microseconds of the measurement's time 0 (its records' times count from it)
     * @param client      what the client observed of itself while it ran (a distributed run's: its busiest worker's)
     * @param workers     a distributed run's workers, each as it ran; empty for one process
     */
    public record Notes(
            String model,
            String inputLength,
            String promptSalt,
            String connections,
            long startEpochMicros,
            ClientHealth.Observed client,
            List<WorkerRun> workers) {
        public Notes {
            workers = List.copyOf(workers);
        }

        /** One process. */
        public Notes(
                String model,
                String inputLength,
                String promptSalt,
                String connections,
                long startEpochMicros,
                ClientHealth.Observed client) {
            this(model, inputLength, promptSalt, connections, startEpochMicros, client, List.of());
        }
    }
}
