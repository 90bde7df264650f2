package dev.headroom.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** A plain OkHttp client for the HTTP tests: raw SSE lines, with the time each line arrived. */
final class SimClient {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final MediaType JSON_TYPE = MediaType.get("application/json");
    final OkHttpClient http = new OkHttpClient.Builder()
            .retryOnConnectionFailure(false)
            .readTimeout(30, TimeUnit.SECONDS)
            .build();
    final String base;

    SimClient(SimServer server) {
        this.base = server.baseUri().toString();
    }

    /** One SSE data line and when it arrived. */
    record Line(String data, long nanos) {
        boolean isDone() {
            return data.equals("[DONE]");
        }

        JsonNode json() {
            try {
                return JSON.readTree(data);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + data, e);
            }
        }
    }

    /** A streamed response: status, headers, data lines, and the error that ended it early, if any. */
    record Streamed(int code, okhttp3.Headers headers, List<Line> lines, IOException error, long headersNanos) {}

    Response post(String path, String body) throws IOException {
        return http.newCall(new Request.Builder()
                        .url(base + path)
                        .post(RequestBody.create(body, JSON_TYPE))
                        .build())
                .execute();
    }

    Response get(String path) throws IOException {
        return http.newCall(new Request.Builder().url(base + path).get().build())
                .execute();
    }

    Streamed stream(String path, String body) throws IOException {
        long start = System.nanoTime();
        try (Response r = post(path, body)) {
            long headers = System.nanoTime() - start;
            List<Line> lines = new ArrayList<>();
            IOException error = null;
            try {
                var source = r.body().source();
                String line;
                while ((line = source.readUtf8Line()) != null) {
                    if (line.startsWith("data: ")) lines.add(new Line(line.substring(6), System.nanoTime()));
                }
            } catch (IOException e) {
                error = e;
            }
            return new Streamed(r.code(), r.headers(), lines, error, headers);
        }
    }

    static String chat(String model, int maxTokens, String extra) {
        return "{\"model\":\"" + model
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"How many servers do we need?\"}],"
                + "\"max_tokens\":" + maxTokens + ",\"ignore_eos\":true,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}" + extra + "}";
    }
}
