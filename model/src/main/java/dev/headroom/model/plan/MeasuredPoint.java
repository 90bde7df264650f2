package dev.headroom.model.plan;

/**
 * What a Headroom result (a probe's summary.json, a sweep's point) says about one load point, as capacity is derived
 * from it.
 *
 * @param closedLoop        users (true) or a request rate (false)
 * @param sloGiven          whether the run was judged against an SLO at all
 * @param requestsPerSecond finished requests per second over the measured window
 * @param ttftMeanMs        NaN when unknown
 * @param e2eMeanMs         NaN when unknown
 * @param sessions          whether its load counted sessions (multi-turn conversations) rather than requests
 * @param sessionMeanS      the mean duration of its completed sessions, in seconds; NaN when none or not sessions
 */
public record MeasuredPoint(
        boolean closedLoop,
        boolean sloGiven,
        boolean sloPass,
        double requestsPerSecond,
        double ttftMeanMs,
        double e2eMeanMs,
        boolean sessions,
        double sessionMeanS) {

    /** Mean TTFT ÷ mean e2e: the share of a request's time before its first token. NaN without data. */
    public double prefillShare() {
        return e2eMeanMs > 0 && ttftMeanMs >= 0 ? Math.min(1, ttftMeanMs / e2eMeanMs) : Double.NaN;
    }
}
