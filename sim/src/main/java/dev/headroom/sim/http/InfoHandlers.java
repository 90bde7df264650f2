package dev.headroom.sim.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/** The small endpoints: models, health, debug traces, and 404 for the rest. */
final class InfoHandlers {
    private InfoHandlers() {}

    /** Wraps a handler body so that every {@link ApiError} becomes an OpenAI-style error response. */
    interface Body {
        void handle(HttpExchange ex) throws IOException, ApiError;
    }

    static HttpHandler guarded(Body body) {
        return ex -> {
            // Not try-with-resources: that would close the exchange before the catch could answer.
            try {
                body.handle(ex);
            } catch (ApiError e) {
                Http.sendError(ex, e);
            } catch (IOException e) {
                // client gone
            } catch (RuntimeException e) {
                // A bug must still get an answer, not a dropped connection.
                Http.sendJson(ex, 500, new ApiError(500, "server_error", "internal error: " + e, null, null).json());
            } finally {
                ex.close();
            }
        };
    }

    static void requireMethod(HttpExchange ex, String method) throws ApiError {
        if (!ex.getRequestMethod().equals(method)) throw Http.methodNotAllowed(ex.getRequestMethod(), method);
    }

    static void requirePath(HttpExchange ex, String path) throws ApiError {
        if (!ex.getRequestURI().getPath().equals(path))
            throw Http.notFound(ex.getRequestURI().getPath());
    }

    /** {@code /v1/models} and the imitated server's own introspection endpoints ({@link Introspection}). */
    static HttpHandler introspection(ServerContext ctx) {
        return guarded(ex -> {
            String path = ex.getRequestURI().getPath();
            var kind = ctx.behaviour.imitates();
            if (!path.equals("/v1/models") && !Introspection.paths(kind).contains(path)) throw Http.notFound(path);
            requireMethod(ex, path.equals("/api/show") ? "POST" : "GET");
            Introspection.Reply r = Introspection.answer(
                    ctx.behaviour.imitates(),
                    ctx.engine,
                    ctx.servedModel,
                    ex.getRequestMethod(),
                    ex.getRequestURI().getPath());
            Http.sendJson(ex, r.status(), r.body());
        });
    }

    static HttpHandler health() {
        return guarded(ex -> {
            requirePath(ex, "/health");
            requireMethod(ex, "GET");
            Http.send(ex, 200, "text/plain", "");
        });
    }

    /** {@code GET /debug/requests/{id}}: the server's own timings of one recent request. */
    static HttpHandler debug(ServerContext ctx) {
        return guarded(ex -> {
            requireMethod(ex, "GET");
            String path = ex.getRequestURI().getPath();
            String id = path.substring("/debug/requests/".length());
            ServerTrace t = ctx.traces.get(id);
            if (t == null) {
                throw new ApiError(
                        404,
                        "invalid_request_error",
                        "no trace for request id '" + id + "' (only recent requests are kept)",
                        null,
                        "not_found");
            }
            Http.sendJson(ex, 200, Json.MAPPER.writeValueAsString(t));
        });
    }

    static HttpHandler notFound() {
        return guarded(ex -> {
            throw Http.notFound(ex.getRequestURI().getPath());
        });
    }
}
