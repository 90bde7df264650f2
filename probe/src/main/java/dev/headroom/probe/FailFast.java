package dev.headroom.probe;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.IoReason;
import dev.headroom.model.RequestRecord;
import java.util.Set;

/**
 * Watches a run's first finished requests: when the first {@value #FIRST} all failed the same way with an error that
 * no load explains (HTTP 4xx other than 429, no connection, malformed events), the target refuses what is sent —
 * a prompt longer than its context, a wrong model or key — and the run stops with the server's own message
 * instead of sending thousands more. Overload signals (429, 5xx, timeouts) are measured, never a reason to stop.
 */
final class FailFast {
    static final int FIRST = 8;
    private static final Set<ErrorKind> REFUSALS =
            Set.of(ErrorKind.HTTP_4XX, ErrorKind.CONNECT, ErrorKind.MALFORMED_EVENT);

    private int seen;
    private String key;
    private String message;
    private boolean settled;

    /** The reason to stop once this record completes the pattern, else null. */
    synchronized String observe(RequestRecord r) {
        if (settled || !r.measured()) return null;
        if (!r.failed() || !REFUSALS.contains(r.failure().kind())) {
            settled = true;
            return null;
        }
        String k = r.failure().kind() + "/" + r.httpStatus();
        if (key == null) {
            key = k;
            message = r.failure().message();
        } else if (!key.equals(k)) {
            settled = true;
            return null;
        }
        if (++seen < FIRST) return null;
        settled = true;
        return "the first " + FIRST + " requests all failed the same way ("
                + r.failure().kind().wireName() + "): " + IoReason.withoutClassNames(message)
                + (r.failure().kind() == ErrorKind.CONNECT
                        ? " (nothing listening there, or not HTTP as the URL says)"
                        : "");
    }
}
