/**
 * The adaptive search: SLO margins, the boundary search (isotonic regression) and the max-goodput search
 * (Gaussian process), asking for measurements through {@link dev.headroom.model.Measurer}-backed load points only.
 */
package dev.headroom.optimizer;
