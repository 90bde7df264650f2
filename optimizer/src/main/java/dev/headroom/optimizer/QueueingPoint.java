package dev.headroom.optimizer;

import dev.headroom.model.ServerFacts;
import dev.headroom.model.Workload;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The concurrency past which a server says it queues this workload's requests: its stated batch cap (llama.cpp's
 * slots, SGLang's max_running_requests, TGI's max_batch_size), or the sequences its stated KV cache holds at the
 * workload's mean lengths — each holding its prompt and, on average, half its answer — whichever is smaller. Up to it
 * latency grows slowly; past it requests wait for a place, so a closed-loop boundary is usually at it or below.
 *
 * @param load     the concurrency
 * @param source   what it was read from, for the console
 * @param batchCap whether it is the stated batch cap itself (exact: past it nothing more runs at once), not the KV
 *                 cache's estimate at mean lengths
 */
public record QueueingPoint(long load, String source, boolean batchCap) {

    /** The point for {@code workload} on a server that stated {@code facts}; empty when it states neither limit. */
    public static Optional<QueueingPoint> of(ServerFacts facts, Workload workload) {
        QueueingPoint best = null;
        OptionalLong running = facts.maxRunning();
        if (running.isPresent() && running.getAsLong() > 0) {
            best = new QueueingPoint(
                    running.getAsLong(),
                    ServerFacts.Key.MAX_RUNNING.wireName() + " " + running.getAsLong() + " ("
                            + facts.source(ServerFacts.Key.MAX_RUNNING) + ")",
                    true);
        }
        long kv = kvTokens(facts);
        double perSequence =
                workload.inputTokens().mean() + workload.outputTokens().mean() / 2;
        if (kv > 0 && perSequence > 0) {
            long fit = (long) Math.floor(kv / perSequence);
            if (fit >= 1 && (best == null || fit < best.load())) {
                best = new QueueingPoint(
                        fit,
                        "a KV cache of " + kv + " tokens at " + Math.round(perSequence) + " tokens a sequence",
                        false);
            }
        }
        return Optional.ofNullable(best);
    }

    private static long kvTokens(ServerFacts facts) {
        OptionalLong tokens = facts.get(ServerFacts.Key.KV_TOKENS);
        if (tokens.isPresent()) return tokens.getAsLong();
        OptionalLong blocks = facts.get(ServerFacts.Key.KV_BLOCKS), size = facts.get(ServerFacts.Key.BLOCK_SIZE);
        return blocks.isPresent() && size.isPresent() ? blocks.getAsLong() * size.getAsLong() : 0;
    }
}
