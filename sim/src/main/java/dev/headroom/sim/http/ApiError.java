package dev.headroom.sim.http;

/** A request the server refuses, with the HTTP status and OpenAI-style error fields to send back. */
final class ApiError extends Exception {
    final int status;
    final String type;
    final String param;
    final String code;
    /** The whole body in another server's own shape, or null for the OpenAI-style one. */
    private final String body;

    ApiError(int status, String type, String message, String param, String code) {
        this(status, type, message, param, code, null);
    }

    private ApiError(int status, String type, String message, String param, String code, String body) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
        this.body = body;
    }

    /** An error whose body is {@code body} exactly, as a server that is not OpenAI's shapes it. */
    static ApiError raw(int status, String message, String body) {
        return new ApiError(status, null, message, null, null, body);
    }

    static ApiError badRequest(String message, String param) {
        return new ApiError(400, "invalid_request_error", message, param, null);
    }

    /** The error body: {@code {"error": {"message", "type", "param", "code"}}}. */
    String json() {
        if (body != null) return body;
        return "{\"error\":{\"message\":" + Json.quote(getMessage()) + ",\"type\":" + Json.quote(type)
                + ",\"param\":" + (param == null ? "null" : Json.quote(param))
                + ",\"code\":" + (code == null ? "null" : Json.quote(code)) + "}}";
    }
}
