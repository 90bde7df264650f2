/**
 * Fitting twins: the calibration's designed probes and phases, the saturation reading, the check points, and
 * the fits of step terms to observations.
 */
package dev.headroom.optimizer.fit;
