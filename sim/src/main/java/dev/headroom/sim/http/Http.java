package dev.headroom.sim.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Small helpers for reading bodies and writing whole responses. */
final class Http {
    private Http() {}

    /** Reads the body, refusing one over {@code limit} bytes with a 413. */
    static byte[] readBody(HttpExchange ex, int limit) throws IOException, ApiError {
        return readBody(ex, limit, false);
    }

    /**
     * As {@link #readBody(HttpExchange, int)}; with {@code closeAfterResponse}, reads exactly the declared length and
     * leaves the stream short of its end, so that the JDK server closes the connection once a response written
     * without {@link #finishReading} is done, as it does after a request it did not read to the end, and without a
     * {@code Connection: close} header.
     */
    static byte[] readBody(HttpExchange ex, int limit, boolean closeAfterResponse) throws IOException, ApiError {
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        long length = -1;
        if (declared != null) {
            try {
                length = Long.parseLong(declared.trim());
                if (length > limit) throw tooLarge(limit);
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("bad Content-Length header: " + declared, null);
            }
        }
        if (closeAfterResponse && length >= 0) {
            // readNBytes(b, off, len) stops at len; readNBytes(len) would try once more and see the end.
            byte[] body = new byte[(int) length];
            int n = ex.getRequestBody().readNBytes(body, 0, body.length);
            if (n < body.length)
                throw ApiError.badRequest("request body ended after " + n + " of " + length + " bytes", null);
            return body;
        }
        try (InputStream in = ex.getRequestBody()) {
            byte[] body = in.readNBytes(limit + 1);
            if (body.length > limit) throw tooLarge(limit);
            return body;
        }
    }

    private static ApiError tooLarge(int limit) {
        return new ApiError(
                413,
                "invalid_request_error",
                "request body is larger than the limit of " + limit + " bytes",
                null,
                "request_too_large");
    }

    static void sendJson(HttpExchange ex, int status, String json) throws IOException {
        send(ex, status, "application/json", json);
    }

    static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        finishReading(ex);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
        }
    }

    /**
     * Most of an unread request body read to its end before a reply, so the connection is kept (as the JDK's drain
     * did).
     */
    static final int DRAIN_BYTES = 64 * 1024;

    /**
     * Reads what is left of the request body, up to {@link #DRAIN_BYTES}, so the JDK server keeps the connection
     * after this response. The simulator sets the JDK's own drain to nothing ({@link SimServer}), so that a
     * response written without this (a stream on a server that closes after streams) closes its connection.
     */
    static void finishReading(HttpExchange ex) {
        try {
            InputStream in = ex.getRequestBody();
            long left = DRAIN_BYTES;
            byte[] buf = new byte[4096];
            int n;
            while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) >= 0) left -= n;
        } catch (IOException e) {
            // nothing to keep: the connection is going anyway
        }
    }

    static void sendError(HttpExchange ex, ApiError e) throws IOException {
        sendJson(ex, e.status, e.json());
    }

    static ApiError methodNotAllowed(String method, String allowed) {
        return new ApiError(
                405,
                "invalid_request_error",
                "method " + method + " is not allowed here; use " + allowed,
                null,
                "method_not_allowed");
    }

    static ApiError notFound(String path) {
        return new ApiError(404, "invalid_request_error", "no route for " + path, null, "not_found");
    }
}
