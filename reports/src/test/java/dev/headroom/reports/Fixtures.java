package dev.headroom.reports;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.Distribution;
import dev.headroom.model.ErrorKind;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementWarnings;
import dev.headroom.model.Metrics;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunInfo;
import dev.headroom.model.Slo;
import dev.headroom.model.TokenSource;
import dev.headroom.model.UserStart;
import java.util.Arrays;
import java.util.List;

/** A fixed, hand-built probe result for format tests. */
final class Fixtures {
    static final long MS = 1_000_000L;

    private Fixtures() {}

    static RequestRecord ok(long index, long intended, long sent, long[] chunks, long end, int prompt) {
        int[] ones = new int[chunks.length];
        Arrays.fill(ones, 1);
        // The first opened the connection, the others reused it; the second was served 496 tokens from the cache.
        return new RequestRecord(
                index,
                false,
                intended,
                sent,
                chunks[0],
                end,
                chunks,
                ones,
                prompt,
                TokenSource.USAGE,
                chunks.length,
                TokenSource.USAGE,
                chunks.length,
                200,
                0,
                0,
                RequestRecord.Outcome.COMPLETED,
                null,
                "r" + index,
                index == 1 ? 496 : 16,
                index == 0 ? RequestRecord.Connection.NEW : RequestRecord.Connection.REUSED,
                512,
                null,
                -1);
    }

    static List<RequestRecord> records() {
        return List.of(
                ok(0, 0, 1 * MS, new long[] {100 * MS, 110 * MS, 125 * MS}, 126 * MS, 512),
                ok(1, 250 * MS, 250 * MS, new long[] {330 * MS, 345 * MS, 360 * MS}, 361 * MS, 512),
                ok(2, 500 * MS, 502 * MS, new long[] {640 * MS, 650 * MS, 700 * MS}, 701 * MS, 512),
                RequestRecord.failed(3, 750 * MS, 750 * MS, 760 * MS, 512, 3, 503, ErrorKind.HTTP_5XX, "busy"));
    }

    static ProbeReport report() {
        var load = new LoadModel.Open(4, new ArrivalProcess.Poisson());
        var run = new RunInfo(
                "test",
                "2026-11-29T10:00:00Z",
                "http://127.0.0.1:8000",
                "meta-llama/Llama-3.1-8B-Instruct",
                "chat",
                "llama-3.1-8b on h100-sxm x1",
                load,
                0,
                0,
                "isl fixed:512, osl fixed:3, ignore_eos",
                "server /tokenize",
                42,
                "9f3a61c2/0",
                "auto: kept-alive connections reused while idle < 4.0 s");
        var summary =
                Metrics.summarize(records(), true, List.of(Slo.parse("ttft:p95<150ms"), Slo.parse("error_rate<5%")));
        return new ProbeReport(
                        run,
                        summary,
                        ClientHealth.assess(
                                summary,
                                load,
                                new ClientHealth.Observed(
                                        new Distribution(20000, 0.12, 0.02, 0.1, 0.15, 0.2, 0.45, 2.1, 5.3),
                                        0.12,
                                        0.3,
                                        0.4),
                                false),
                        null,
                        MeasurementWarnings.of(summary, run.inputLength(), false))
                .startedAs(new UserStart(UserStart.How.RAMP, 2, ""));
    }
}
