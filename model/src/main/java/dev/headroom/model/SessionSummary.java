package dev.headroom.model;

import java.util.List;

/**
 * A session load point's metrics by turn and by session, computed by {@link SessionRecorder} from the records: every
 * measured request counts in its turn's figures (whenever its session began), and a session counts in the session
 * figures when its first request was measured. Latencies in milliseconds, durations in seconds.
 *
 * @param spec         what each session did
 * @param turns        the turns' own requests (not sub-calls or tool rounds), by turn index
 * @param subCalls     sub-calls and tool rounds: completed and failed
 * @param sessions     how the sessions ended
 * @param durationS    completed sessions: from the first turn's origin (open loop: its arrival slot) to the end of
 *                     the session's last request
 * @param droppedTurns history turns left out of prompts to fit the context, summed over every request
 * @param goodputSessionsPerS good sessions ({@link Sessions#good}) per second of the measurement window; NaN when the
 *                     window is not known
 */
public record SessionSummary(
        SessionSpec spec,
        List<Turn> turns,
        Calls subCalls,
        Sessions sessions,
        Distribution durationS,
        long droppedTurns,
        double goodputSessionsPerS) {
    public SessionSummary {
        turns = List.copyOf(turns);
    }

    /**
     * One turn index's requests: latencies of the completed ones, and their prompts as the server counted and cached
     * them.
     *
     * @param itlMs         every inter-token gap of the turn's completed requests (as {@code itl} counts them)
     * @param promptTokens  prompt tokens of the completed requests whose usage said how many were cached
     * @param cachedTokens  of those, served from the server's prefix cache
     * @param reporting     completed requests whose usage said how many prompt tokens were cached
     */
    public record Turn(
            int turn,
            long completed,
            long failed,
            Distribution ttftMs,
            Distribution e2eMs,
            Distribution itlMs,
            Distribution islTokens,
            long reporting,
            long promptTokens,
            long cachedTokens) {
        /** Cached share of the reporting requests' prompt tokens (NaN when none reported). */
        public double cachedFraction() {
            return promptTokens == 0 ? Double.NaN : (double) cachedTokens / promptTokens;
        }

        /** Prompt tokens the server actually prefilled (prompt minus cached) among the reporting requests. */
        public long prefilledTokens() {
            return promptTokens - cachedTokens;
        }
    }

    /** Requests of one kind that completed or failed. */
    public record Calls(long completed, long failed) {}

    /**
     * @param completed every call of every turn completed
     * @param failed    a request failed (the session ended there: a user gives up on a failed turn)
     * @param abandoned the run ended before the session did
     * @param good      completed sessions every request of which met every request SLO, and whose duration met every
     *                  session SLO
     */
    public record Sessions(long started, long completed, long failed, long abandoned, long good) {}

    /** The load's label in sessions: {@code sessions=N} or {@code session_rate=R/s poisson}. */
    public static String loadLabel(LoadModel load) {
        return switch (load) {
            case LoadModel.Closed c -> "sessions=" + c.concurrency();
            case LoadModel.Open o -> "session_" + o.label();
        };
    }
}
