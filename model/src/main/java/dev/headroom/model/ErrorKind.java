package dev.headroom.model;

import java.util.Locale;

/** Why a request failed; the wire name (e.g. {@code http_5xx}) is what results and reports use. */
public enum ErrorKind {
    /** HTTP 4xx other than 429. */
    HTTP_4XX,
    /** HTTP 429: rate-limited or the server's queue is full. */
    HTTP_429,
    /** HTTP 5xx. */
    HTTP_5XX,
    /** The TCP or TLS connection could not be made. */
    CONNECT,
    /** No first token within the first-token timeout. */
    TIMEOUT_FIRST_TOKEN,
    /** The whole response took longer than the total timeout. */
    TIMEOUT_TOTAL,
    /** The connection broke mid-response. */
    RESET,
    /** An event was not valid JSON, or not the expected shape. */
    MALFORMED_EVENT,
    /** The stream ended without a finish_reason or [DONE]. */
    TRUNCATED,
    /** The response finished with no output tokens. */
    EMPTY,
    /**
     * The client's own race, not the server's error: a request sent on a kept-alive connection that the server had
     * already closed failed before any response byte. Its record's outcome is {@code client_error}.
     */
    STALE_CONNECTION,
    /** Anything else (named in the message). */
    OTHER;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind for an HTTP error status. */
    public static ErrorKind forStatus(int status) {
        if (status == 429) return HTTP_429;
        return status >= 500 ? HTTP_5XX : HTTP_4XX;
    }
}
