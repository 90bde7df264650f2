/**
 * Capacity planning: capacities from searches or models, replicas over a forecast, costs and $/Mtok, mixes of
 * hardware, and verification of a plan on a simulated fleet.
 */
package dev.headroom.optimizer.plan;
