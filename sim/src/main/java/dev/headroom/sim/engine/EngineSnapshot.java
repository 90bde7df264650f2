package dev.headroom.sim.engine;

/** The engine's gauges and counters at one instant, for {@code /metrics}. */
public record EngineSnapshot(
        int running,
        int waiting,
        double kvUsage,
        int kvBlocks,
        long promptTokens,
        long generationTokens,
        long preemptions,
        long finished,
        long steps,
        long prefixCacheQueries,
        long prefixCacheHits) {}
