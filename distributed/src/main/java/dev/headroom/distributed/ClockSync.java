package dev.headroom.distributed;

import java.io.IOException;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A worker's clock against the coordinator's, NTP-style: {@value #SAMPLES} round trips asking its monotonic clock;
 * the one with the shortest round trip is kept, its offset {@code worker − (sent + received)/2} and its uncertainty
 * half that round trip (the worker read its clock somewhere inside it).
 */
final class ClockSync {
    static final int SAMPLES = 16;

    private ClockSync() {}

    /** A worker clock's offset to this process's {@link System#nanoTime()}, and how far it may be off. */
    record Offset(long nanos, long uncertaintyNanos) {
        double ms() {
            return nanos / 1e6;
        }

        double uncertaintyMs() {
            return uncertaintyNanos / 1e6;
        }

        /** This process's time {@code t} on the worker's clock. */
        long onWorker(long t) {
            return t + nanos;
        }
    }

    static Offset measure(OkHttpClient http, String baseUrl, String token) throws IOException {
        Request req = new Request.Builder()
                .url(baseUrl + "/clock")
                .header("Authorization", "Bearer " + token)
                .build();
        long bestRtt = Long.MAX_VALUE;
        long bestOffset = 0;
        for (int i = 0; i < SAMPLES + 1; i++) {
            long sent = System.nanoTime();
            long worker;
            try (Response r = http.newCall(req).execute()) {
                String body = r.body().string();
                if (r.code() != 200) throw new IOException("HTTP " + r.code() + ": " + body.trim());
                worker = Long.parseLong(body.trim());
            }
            long received = System.nanoTime();
            if (i == 0) continue; // the first opens the connection
            long rtt = received - sent;
            if (rtt < bestRtt) {
                bestRtt = rtt;
                bestOffset = worker - (sent + rtt / 2);
            }
        }
        return new Offset(bestOffset, (bestRtt + 1) / 2);
    }
}
