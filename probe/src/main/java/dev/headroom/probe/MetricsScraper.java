package dev.headroom.probe;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.headroom.model.ServerMetrics;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Scrapes a Prometheus {@code /metrics} endpoint at a fixed interval while a probe runs, appending every scrape —
 * every series, known or not — to {@code server_metrics.jsonl}, and summarises the names vLLM, SGLang and llama.cpp
 * use for running and waiting requests, KV-cache usage, preemptions, prefix-cache and token counters. A failed scrape
 * is counted and warned about; it never fails the probe.
 * <p>
 * Scrapes stay apart from the measurement: a client, connection pool and thread of their own; a timeout of at least
 * {@link #MIN_TIMEOUT} (a busy server answers {@code /metrics} slowly, and a scrape that times out only loses a
 * sample); a GET on a kept-alive connection the server closed is retried on a new one (it is idempotent); and a
 * slow scrape skips the ticks it overran instead of piling up.
 */
public final class MetricsScraper implements AutoCloseable {
    static final Duration MIN_TIMEOUT = Duration.ofSeconds(5);
    private final String url;
    private final Duration interval;
    private final OkHttpClient http;
    private final BufferedWriter out;
    private final Thread thread;
    // The real clock, not a run's Ticker: its caller starts it beside a probe, to sample a real server in real time.
    private final long startNanos = System.nanoTime();
    private final List<Map<String, Double>> scrapes = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private int failed;
    private String lastError;
    private volatile boolean stopping;

    /** Starts scraping {@code url} every {@code interval} into {@code file}. */
    public MetricsScraper(String url, Duration interval, Path file) {
        this.url = url;
        this.interval = interval;
        Duration timeout = interval.compareTo(MIN_TIMEOUT) > 0 ? interval : MIN_TIMEOUT;
        this.http = new OkHttpClient.Builder()
                .callTimeout(timeout)
                .retryOnConnectionFailure(true)
                .build();
        try {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        this.thread = Thread.ofVirtual().name("metrics-scraper").start(this::loop);
    }

    /** The server's own {@code /metrics} beside {@code base} when it answers with Prometheus text now, else null. */
    public static String discover(URI base) {
        String url = base.getScheme() + "://" + base.getAuthority() + "/metrics";
        return answers(url) ? url : null;
    }

    /** Whether {@code url} answers a GET with a 200 and some Prometheus text (used to pick the default). */
    public static boolean answers(String url) {
        OkHttpClient c =
                new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(2)).build();
        try (Response r = c.newCall(new Request.Builder().url(url).build()).execute()) {
            return r.isSuccessful() && !PrometheusText.parse(r.body().string()).isEmpty();
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } finally {
            c.dispatcher().executorService().shutdown();
            c.connectionPool().evictAll();
        }
    }

    private void loop() {
        long next = System.nanoTime();
        while (!stopping) {
            scrapeOnce();
            long now = System.nanoTime();
            next += interval.toNanos();
            while (next <= now) next += interval.toNanos(); // a slow scrape costs the ticks it overran
            try {
                Thread.sleep(Duration.ofNanos(next - now));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void scrapeOnce() {
        double t = (System.nanoTime() - startNanos) / 1e9;
        Map<String, Double> samples = null;
        String error = null;
        try (Response r = http.newCall(new Request.Builder().url(url).build()).execute()) {
            if (r.isSuccessful()) samples = PrometheusText.parse(r.body().string());
            else error = "HTTP " + r.code();
        } catch (IOException e) {
            // finish() interrupted this scrape (OkHttp: InterruptedIOException, or the socket closed by the
            // interrupt): our stop, not the server's failure; finish()'s own last scrape says how the server is.
            if (stopping && Thread.currentThread() == thread) return;
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        } catch (Exception e) {
            // OkHttp throws InterruptedException undeclared when close() interrupts a scrape waiting for its
            // connection: the run is over, and a stack trace on stderr would be the only trace of it.
            if (e instanceof InterruptedException) Thread.currentThread().interrupt(); // the loop's sleep ends it
            if (e instanceof InterruptedException || stopping) return;
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        synchronized (this) {
            if (samples == null) {
                failed++;
                lastError = error;
            } else {
                scrapes.add(samples);
                samples.keySet().forEach(s -> names.add(PrometheusText.name(s)));
            }
            write(t, samples, error);
        }
    }

    private void write(double t, Map<String, Double> samples, String error) {
        try {
            JsonGenerator g = new JsonFactory().createGenerator(out);
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.writeStartObject();
            g.writeNumberField("t_s", Math.round(t * 1000) / 1000.0);
            if (error != null) {
                g.writeStringField("error", error);
            } else {
                g.writeObjectFieldStart("samples");
                for (var e : samples.entrySet()) {
                    if (Double.isFinite(e.getValue())) g.writeNumberField(e.getKey(), e.getValue());
                    else g.writeStringField(e.getKey(), e.getValue().toString());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
            g.close();
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to server_metrics.jsonl: " + e.getMessage(), e);
        }
    }

    /** Stops after one last scrape and summarises. */
    public ServerMetrics finish() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scrapeOnce();
        synchronized (this) {
            Map<String, double[]> gauges = new LinkedHashMap<>();
            for (String k : ServerMetrics.GAUGES) gauges.put(k, gauge(k));
            Map<String, Double> counters = new LinkedHashMap<>();
            for (String k : ServerMetrics.COUNTERS) counters.put(k, increase(k));
            return new ServerMetrics(
                    url, interval.toMillis() / 1000.0, scrapes.size(), failed, names.size(), gauges, counters);
        }
    }

    /** Why the last failed scrape failed, or null. */
    public synchronized String lastError() {
        return lastError;
    }

    /** A known gauge summed over its series (e.g. several models), {mean, max} over the scrapes; NaNs when absent. */
    private double[] gauge(String key) {
        double sum = 0, max = Double.NaN;
        int n = 0;
        for (Map<String, Double> s : scrapes) {
            Double v = value(s, key);
            if (v == null) continue;
            sum += v;
            max = Double.isNaN(max) ? v : Math.max(max, v);
            n++;
        }
        return new double[] {n == 0 ? Double.NaN : sum / n, max};
    }

    private double increase(String key) {
        Double first = null, last = null;
        for (Map<String, Double> s : scrapes) {
            Double v = value(s, key);
            if (v == null) continue;
            if (first == null) first = v;
            last = v;
        }
        return first == null ? Double.NaN : last - first;
    }

    private static Double value(Map<String, Double> samples, String key) {
        for (String name : ServerMetrics.KNOWN.get(key)) {
            double sum = 0;
            boolean found = false;
            for (var e : samples.entrySet()) {
                if (PrometheusText.name(e.getKey()).equals(name)) {
                    sum += e.getValue();
                    found = true;
                }
            }
            if (found) return sum;
        }
        return null;
    }

    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            out.close();
        } catch (IOException ignored) {
            // the summary is already taken; a close failure loses nothing measured
        }
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }
}
