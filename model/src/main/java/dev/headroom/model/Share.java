package dev.headroom.model;

/**
 * One worker's part of a load point run by several (docs/distributed.md): worker {@code worker} of {@code workers}.
 * Closed loop: the users {@code u} with {@code u % workers == worker}, each starting when it would alone; the
 * requests they claim are numbered {@code worker + workers·j}, so indices (and {@link Seeds} streams) never collide,
 * and a count of requests is split as evenly as it divides. Open loop: every worker lays the same global schedule from
 * the seed and sends the arrivals {@code a} with {@code a % workers == worker}, numbered {@code a}, so the same seed
 * gives the same requests at the same times whatever the number of workers. A session stays on one worker.
 */
public record Share(int worker, int workers) {
    /** The whole load point, on one process. */
    public static final Share ALL = new Share(0, 1);

    public Share {
        if (workers < 1 || worker < 0 || worker >= workers) {
            throw new IllegalArgumentException("worker " + worker + " of " + workers);
        }
    }

    /** Whether user, arrival or session {@code n} (global numbering) is this worker's. */
    public boolean owns(long n) {
        return n % workers == worker;
    }

    /** The global number of this worker's {@code j}-th claimed request or session. */
    public long nth(long j) {
        return worker + workers * j;
    }

    /** This worker's part of {@code total} requests: divided as evenly as it goes, the first workers one more. */
    public int of(int total) {
        return total / workers + (worker < total % workers ? 1 : 0);
    }

    /** Whether this is the whole load point. */
    public boolean whole() {
        return workers == 1;
    }
}
