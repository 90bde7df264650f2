package dev.headroom.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ErrorKind;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.Share;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.TokenSource;
import dev.headroom.model.Workload;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What crosses between a coordinator and its workers comes back as it went: load points, shares and records. */
class WireTest {
    private static final TargetSpec TARGET =
            new TargetSpec("http://127.0.0.1:1", "chat", null, "KEY", null, Map.of(), false, "auto", 1, 2, 3);

    @Test
    void aLoadPointCrossesWhole() {
        MeasurementRequest closed = new MeasurementRequest(
                new LoadModel.Closed(12, 0.5),
                new Workload(new LengthDistribution.Normal(300, 40), new LengthDistribution.Uniform(10, 90), true),
                new RunLength(500, 120, 20, 3, 5, 15),
                99,
                r -> true);
        MeasurementRequest capped = new MeasurementRequest(
                new LoadModel.Open(7.5, new ArrivalProcess.Gamma(0.5), 64),
                Workload.fixed(128, 16),
                RunLength.requests(40),
                3);
        MeasurementRequest open = new MeasurementRequest(
                new LoadModel.Open(7.5, new ArrivalProcess.Gamma(0.5)),
                Workload.fixed(128, 16),
                RunLength.requests(40),
                3,
                null,
                new SessionSpec(
                        3,
                        new LengthDistribution.LogNormal(80, 20),
                        new LengthDistribution.Fixed(30),
                        new ThinkTime.Exponential(2),
                        100,
                        1,
                        1,
                        4096));
        for (MeasurementRequest p : new MeasurementRequest[] {closed, capped, open}) {
            Job job = new Job(TARGET, p, new Share(1, 3), "salt/0", 32);
            Job back = Wire.read(Wire.write(job), Job.class);
            assertEquals(p.load(), back.point().load());
            assertEquals(p.workload(), back.point().workload());
            assertEquals(p.length(), back.point().length());
            assertEquals(p.seed(), back.point().seed());
            assertEquals(p.sessions(), back.point().sessions());
            assertNull(back.point().stopEarly(), "the stop rule stays with the coordinator");
            assertEquals(new Share(1, 3), back.share());
            assertEquals(TARGET, back.target());
        }
    }

    @Test
    void aRecordCrossesWithEveryChunkTime() {
        RequestRecord done = RequestRecord.completed(
                        17, 1_000, 1_200, new long[] {5_000, 6_000, 9_000}, 9_500, 512, TokenSource.USAGE, 3, 1, 128)
                .withTurn(new SessionTurn(4, 1, 0, 0, 3));
        RequestRecord failed = RequestRecord.failed(18, 2_000, 2_100, 3_000, 64, 16, 503, ErrorKind.HTTP_5XX, "busy")
                .asWarmup();
        for (RequestRecord r : new RequestRecord[] {done, failed}) {
            String once = Wire.write(Line.of(r));
            Line back = Wire.read(once, Line.class);
            assertEquals(once, Wire.write(back), "the same record, field for field");
            assertEquals(r.chunkNanos().length, back.record().chunkNanos().length);
            assertEquals(r.outcome(), back.record().outcome());
            assertEquals(r.turn(), back.record().turn());
        }
    }
}
