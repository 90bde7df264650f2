package dev.headroom.sim.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keeps the most recent server traces for {@code /debug/requests/{id}} and, optionally, appends all to a JSONL file.
 */
final class TraceStore implements AutoCloseable {
    private final Map<String, ServerTrace> recent;
    private final BufferedWriter out;

    TraceStore(int keep, Path jsonl) {
        this.recent = new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ServerTrace> eldest) {
                return size() > keep;
            }
        };
        try {
            this.out = jsonl == null ? null : Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace file " + jsonl + ": " + e.getMessage(), e);
        }
    }

    synchronized void add(ServerTrace t) {
        recent.put(t.id(), t);
        if (out != null) {
            try {
                out.write(Json.MAPPER.writeValueAsString(t));
                out.write('\n');
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            } catch (IOException e) {
                // A full disk must not take the server down; the in-memory traces remain.
                System.err.println("warning: trace write failed: " + e.getMessage());
            }
        }
    }

    synchronized ServerTrace get(String id) {
        return recent.get(id);
    }

    @Override
    public synchronized void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                System.err.println("warning: trace close failed: " + e.getMessage());
            }
        }
    }
}
