package dev.headroom.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.ServerFacts;
import dev.headroom.model.ServerFacts.Fact;
import dev.headroom.model.ServerFacts.Key;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.model.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueingPointTest {
    private static final Workload CHAT = Workload.fixed(1000, 200);

    @Test
    void theStatedBatchCapIsTheQueueingPoint() {
        var facts = new ServerFacts(
                ServerKind.SGLANG,
                "0.5",
                "m",
                List.of(
                        new Fact(Key.MAX_RUNNING, 256, "GET /server_info: max_running_requests"),
                        new Fact(Key.KV_TOKENS, 1_000_000, "GET /server_info: max_total_num_tokens")));
        QueueingPoint q = QueueingPoint.of(facts, CHAT).orElseThrow();
        assertEquals(256, q.load());
        assertTrue(q.source().contains("max_running_requests"), q.source());
    }

    @Test
    void aKvCacheThatHoldsFewerSequencesThanTheCapBindsFirst() {
        // 1,000 prompt tokens and on average half of 200 answer tokens: 1,100 a sequence, 90 of them in 100,000.
        var facts = new ServerFacts(
                ServerKind.VLLM,
                null,
                "m",
                List.of(
                        new Fact(Key.MAX_RUNNING, 256, "x"),
                        new Fact(Key.KV_BLOCKS, 6250, "GET /metrics: num_gpu_blocks"),
                        new Fact(Key.BLOCK_SIZE, 16, "GET /metrics: block_size")));
        QueueingPoint q = QueueingPoint.of(facts, CHAT).orElseThrow();
        assertEquals(90, q.load());
        assertTrue(q.source().contains("100000 tokens"), q.source());
    }

    @Test
    void aServerThatStatesNeitherHasNone() {
        assertTrue(QueueingPoint.of(ServerFacts.unknown(), CHAT).isEmpty());
        var contextOnly = new ServerFacts(
                ServerKind.VLLM, null, "m", List.of(new Fact(Key.CONTEXT_PER_REQUEST, 8192, "GET /v1/models")));
        assertTrue(QueueingPoint.of(contextOnly, CHAT).isEmpty());
    }
}
