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
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > limit) throw tooLarge(limit);
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("bad Content-Length header: " + declared, null);
            }
        }
        try (InputStream in = ex.getRequestBody()) {
            byte[] body = in.readNBytes(limit + 1);
            if (body.length > limit) throw tooLarge(limit);
            return body;
        }
    }

    private static ApiError tooLarge(int limit) {
        return new ApiError(413, "invalid_request_error", "request body is larger than the limit of " + limit + " bytes",
                null, "request_too_large");
    }

    static void sendJson(HttpExchange ex, int status, String json) throws IOException {
        send(ex, status, "application/json", json);
    }

    static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
        }
    }

    static void sendError(HttpExchange ex, ApiError e) throws IOException {
        sendJson(ex, e.status, e.json());
    }

    static ApiError methodNotAllowed(String method, String allowed) {
        return new ApiError(405, "invalid_request_error", "method " + method + " is not allowed here; use " + allowed,
                null, "method_not_allowed");
    }

    static ApiError notFound(String path) {
        return new ApiError(404, "invalid_request_error", "no route for " + path, null, "not_found");
    }
}
