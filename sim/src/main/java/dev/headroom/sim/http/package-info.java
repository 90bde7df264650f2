/**
 * The embedded OpenAI-compatible HTTP server over the engine, imitating a server kind's endpoints, errors,
 * chat template and connection handling.
 */
package dev.headroom.sim.http;
