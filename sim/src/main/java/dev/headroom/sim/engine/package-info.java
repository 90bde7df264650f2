/**
 * The clock-free engine model: continuous batching, paged KV cache, prefix cache, chunked prefill and a roofline
 * step cost; {@link dev.headroom.sim.engine.Engine} advances only when told, so a real-time or a virtual driver
 * runs it.
 */
package dev.headroom.sim.engine;
