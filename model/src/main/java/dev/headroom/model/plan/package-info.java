/**
 * Capacity planning's values: forecasts, workload classes, policies, catalog options and prices, capacities, and
 * the plan, comparison and verification results.
 */
package dev.headroom.model.plan;
