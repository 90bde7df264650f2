/**
 * The load driver and the streaming client: runs one load point against an OpenAI-compatible endpoint over HTTP
 * ({@link dev.headroom.probe.Probe}, a {@link dev.headroom.model.Measurer}), builds prompts that hit their lengths,
 * reads what the server says about itself, and records every request.
 */
package dev.headroom.probe;
