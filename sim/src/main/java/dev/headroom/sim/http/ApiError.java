package dev.headroom.sim.http;

/** A request the server refuses, with the HTTP status and OpenAI-style error fields to send back. */
final class ApiError extends Exception {
    final int status;
    final String type;
    final String param;
    final String code;

    ApiError(int status, String type, String message, String param, String code) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    static ApiError badRequest(String message, String param) {
        return new ApiError(400, "invalid_request_error", message, param, null);
    }

    /** The error body: {@code {"error": {"message", "type", "param", "code"}}}. */
    String json() {
        return "{\"error\":{\"message\":" + Json.quote(getMessage()) + ",\"type\":" + Json.quote(type)
                + ",\"param\":" + (param == null ? "null" : Json.quote(param))
                + ",\"code\":" + (code == null ? "null" : Json.quote(code)) + "}}";
    }
}
