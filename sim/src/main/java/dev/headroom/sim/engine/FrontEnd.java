package dev.headroom.sim.engine;

/**
 * The serving process in front of an engine (vLLM's API server, SGLang's TokenizerManager, trtllm-serve's main
 * process): one worker, first come first served, that takes each request in and writes each streamed token out. Work
 * that finds it busy waits; the engine never does. Idle at time zero.
 */
public final class FrontEnd {
    private final long requestNanos;
    private final long tokenNanos;
    private long free = Long.MIN_VALUE;

    public FrontEnd(EngineConfig config) {
        this.requestNanos = config.frontEndRequestNanos();
        this.tokenNanos = config.frontEndTokenNanos();
    }

    /** When a request sent at {@code at} has been taken in (tokenised, handed on). */
    public synchronized long request(long at) {
        return serve(at, requestNanos);
    }

    /** When a token the engine produced at {@code at} has been written out. */
    public synchronized long token(long at) {
        return serve(at, tokenNanos);
    }

    /** True when it costs nothing: every time passes through unchanged. */
    public boolean free() {
        return requestNanos == 0 && tokenNanos == 0;
    }

    private long serve(long at, long cost) {
        if (cost == 0) return at;
        free = Math.max(free, at) + cost;
        return free;
    }
}
