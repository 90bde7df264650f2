/**
 * Twins of servers: the engine configuration a calibration fits ({@link dev.headroom.sim.fidelity.EngineTwin},
 * calibration.yaml) and the published results the stock profiles are scored and fitted on.
 */
package dev.headroom.sim.fidelity;
