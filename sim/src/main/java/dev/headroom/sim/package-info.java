/**
 * The simulator's entry points: the engine on a virtual clock ({@link dev.headroom.sim.VirtualEngine}, a {@link
 * dev.headroom.model.Measurer}), fleets of replicas, and how an imitated server kind behaves ({@link
 * dev.headroom.sim.Imitation}).
 */
package dev.headroom.sim;
