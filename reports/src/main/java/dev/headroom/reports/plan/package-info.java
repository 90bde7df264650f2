/**
 * Readers of plan's and compare's YAML inputs (forecast, catalog, policy, capacities), validated.
 */
package dev.headroom.reports.plan;
