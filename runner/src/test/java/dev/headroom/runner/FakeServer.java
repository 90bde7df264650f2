package dev.headroom.runner;

import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import java.util.function.Consumer;

/**
 * A scripted target: each of a closed-loop point's requests gets its first token after {@code msPerUser} ms per
 * user and then {@code tokens} tokens 5 ms apart; every {@code failEvery}-th request fails (0: none). No clock, no
 * threads: the same point gives the same records.
 */
record FakeServer(double msPerUser, int tokens, int failEvery) implements Measurer {
    private static final long MS = 1_000_000;

    @Override
    public Measurement measure(MeasurementRequest request, Consumer<RequestRecord> sink) {
        int users = request.load() instanceof LoadModel.Closed c ? c.concurrency() : 1;
        long ttft = Math.round(msPerUser * users * MS);
        long cycle = ttft + tokens * 5 * MS;
        int n = request.length().requests();
        for (int i = 0; i < n; i++) {
            long sent = (i / users) * cycle;
            if (failEvery > 0 && (i + 1) % failEvery == 0) {
                sink.accept(RequestRecord.failed(
                        i, sent, sent, sent + ttft, 10, tokens, 503, dev.headroom.model.ErrorKind.HTTP_5XX, "busy"));
                continue;
            }
            long[] chunks = new long[tokens];
            for (int k = 0; k < tokens; k++) chunks[k] = sent + ttft + k * 5 * MS;
            sink.accept(RequestRecord.completed(
                    i, sent, sent, chunks, chunks[tokens - 1], 10, TokenSource.USAGE, tokens, 0));
        }
        return new Measurement(request, java.util.List.of(), (n / users + 1) * cycle, true, request.seed());
    }
}
