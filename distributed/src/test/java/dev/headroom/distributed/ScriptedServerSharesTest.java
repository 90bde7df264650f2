package dev.headroom.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Metric;
import dev.headroom.model.MetricsRecorder;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.RunLength;
import dev.headroom.model.Summary;
import dev.headroom.model.WorkerRun;
import dev.headroom.model.Workload;
import dev.headroom.probe.Api;
import dev.headroom.probe.Probe;
import dev.headroom.probe.Target;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.net.ServerSocketFactory;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Four workers against a scripted server that answers as an OpenAI-compatible one does (a first byte after 30 ms, a
 * usage chunk, {@code [DONE]}): the same requests, the same schedule and the same figures as one process.
 */
class ScriptedServerSharesTest {
    private static final String TOKEN = "0123456789abcdef0123";
    private MockWebServer server;
    private final AtomicInteger generations = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setServerSocketFactory(new NoDelay());
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (!request.getUrl().encodedPath().endsWith("/chat/completions")) {
                    return new MockResponse.Builder().code(404).body("{}").build();
                }
                generations.incrementAndGet();
                return new MockResponse.Builder()
                        .setHeader("Content-Type", "text/event-stream")
                        .headersDelay(30, TimeUnit.MILLISECONDS)
                        .body(stream())
                        .build();
            }
        });
        server.start();
    }

    /**
     * Sockets that send each write at once (TCP_NODELAY), as uvicorn's do. MockWebServer's own wait for the ACK of
     * the headers before it sends the body (Nagle), and a connection busy enough to be in delayed-ACK mode adds 40 ms
     * to its TTFT: 72 ms from one process at 40 req/s, 31 ms from four workers at 10 req/s each.
     */
    private static final class NoDelay extends ServerSocketFactory {
        @Override
        public ServerSocket createServerSocket() throws IOException {
            return new ServerSocket() {
                @Override
                public Socket accept() throws IOException {
                    Socket s = super.accept();
                    s.setTcpNoDelay(true);
                    return s;
                }
            };
        }

        @Override
        public ServerSocket createServerSocket(int port) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ServerSocket createServerSocket(int port, int backlog) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ServerSocket createServerSocket(int port, int backlog, InetAddress address) {
            throw new UnsupportedOperationException();
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String stream() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            b.append("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,")
                    .append("\"delta\":{\"content\":\"tok")
                    .append(i)
                    .append(" \"},\"finish_reason\":")
                    .append(i == 3 ? "\"length\"" : "null")
                    .append("}]}\n\n");
        }
        b.append("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],")
                .append("\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":4,\"total_tokens\":20}}\n\n");
        b.append("data: [DONE]\n\n");
        return b.toString();
    }

    private Target target() {
        return new Target(
                URI.create(server.url("/v1").toString()),
                Api.CHAT,
                "m",
                null,
                Map.of(),
                false,
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofSeconds(20));
    }

    private static Summary summary(MeasurementRequest p, List<RequestRecord> records) {
        MetricsRecorder m = new MetricsRecorder(p.openLoop(), List.of());
        records.forEach(m::accept);
        return m.summary();
    }

    /** The records of {@code p} from one process, sorted by index. */
    private List<RequestRecord> alone(MeasurementRequest p) {
        List<RequestRecord> got = Collections.synchronizedList(new ArrayList<>());
        new Probe(target(), "one").measure(p, got::add);
        return sorted(got);
    }

    private record Shared(Measurement measurement, List<RequestRecord> records) {}

    private Shared four(MeasurementRequest p) {
        List<Worker> workers = new ArrayList<>();
        for (int k = 0; k < 4; k++) workers.add(Worker.start(new InetSocketAddress("127.0.0.1", 0), TOKEN));
        try (Coordinator c = new Coordinator(
                workers.stream().map(Worker::url).toList(),
                TOKEN,
                TargetSpec.of(target(), "NO_KEY", null),
                0,
                "four")) {
            List<RequestRecord> got = Collections.synchronizedList(new ArrayList<>());
            Measurement m = c.measure(p, (Consumer<RequestRecord>) got::add);
            return new Shared(m, sorted(got));
        } finally {
            workers.forEach(Worker::close);
        }
    }

    private static List<RequestRecord> sorted(List<RequestRecord> records) {
        List<RequestRecord> copy = new ArrayList<>(records);
        copy.sort(Comparator.comparingLong(RequestRecord::index));
        return copy;
    }

    @Test
    void anOpenLoopDealtToFourWorkersSendsOneProcesssScheduleAndMeasuresTheSame() {
        MeasurementRequest p = new MeasurementRequest(
                new LoadModel.Open(40, new ArrivalProcess.Poisson()),
                Workload.fixed(16, 4),
                new RunLength(120, 60, 10, 0.2),
                11);
        List<RequestRecord> one = alone(p);
        int sentAlone = generations.getAndSet(0);
        Shared four = four(p);
        assertEquals(one.size(), four.records().size(), "as many records, warm-up included");
        assertEquals(one.size() + 1, sentAlone, "one process: its records and its one-token preflight");
        assertEquals(one.size() + 4, generations.get(), "four workers: the same records and a preflight each");
        assertEquals(
                one.stream().map(RequestRecord::index).toList(),
                four.records().stream().map(RequestRecord::index).toList(),
                "the same request indices");
        long originOne = one.getFirst().intendedNanos();
        long originFour = four.records().getFirst().intendedNanos();
        for (int i = 0; i < one.size(); i++) {
            long a = one.get(i).intendedNanos() - originOne;
            long b = four.records().get(i).intendedNanos() - originFour;
            assertEquals(
                    a, b, 2_000_000, "request " + one.get(i).index() + "'s intended send time, ns after the first");
        }
        Summary s1 = summary(p, one);
        Summary s4 = summary(p, four.records());
        assertEquals(120, s1.counts().completed());
        assertEquals(s1.counts().completed(), s4.counts().completed(), "the same count of measured requests");
        assertEquals(0, s4.counts().failed());
        double ttft1 = s1.distribution(Metric.TTFT_MS).p50();
        double ttft4 = s4.distribution(Metric.TTFT_MS).p50();
        assertTrue(ttft1 >= 30 && ttft4 >= 30, "the scripted 30 ms before the first byte: " + ttft1 + ", " + ttft4);
        assertEquals(ttft1, ttft4, 15, "TTFT p50 (ms): one process " + ttft1 + ", four workers " + ttft4);
        List<WorkerRun> each = four.measurement().notes().workers();
        assertEquals(4, each.size());
        for (WorkerRun w : each) assertFalse(w.degraded(), w.problem());
        assertEquals(one.size(), each.stream().mapToLong(WorkerRun::records).sum(), "every record from one worker");
    }

    @Test
    void aClosedLoopSharedByFourWorkersServesTheSameRequestCount() {
        MeasurementRequest p = new MeasurementRequest(
                new LoadModel.Closed(8), Workload.fixed(16, 4), new RunLength(100, 60, 8, 0.2), 3);
        Summary s1 = summary(p, alone(p));
        Shared four = four(p);
        Summary s4 = summary(p, four.records());
        assertEquals(100, s1.counts().completed());
        assertEquals(100, s4.counts().completed());
        assertEquals(0, s4.counts().failed());
        double e1 = s1.distribution(Metric.E2E_MS).p50();
        double e4 = s4.distribution(Metric.E2E_MS).p50();
        assertEquals(e1, e4, 15, "E2E p50 (ms): one process " + e1 + ", four workers " + e4);
    }
}
