/**
 * The {@code --capacity} values of plan and compare: measured results or a capacities file, as capacities.
 */
package dev.headroom.cli.plan;
