/**
 * Runs load points and the commands built of them against a target and writes run directories: {@link
 * dev.headroom.runner.Endpoint} is the target (HTTP, the embedded simulator, the virtual clock, any {@link
 * dev.headroom.model.Measurer}), {@link dev.headroom.runner.LoadPoints} turns a load point into a directory and a typed
 * result, and {@link dev.headroom.runner.Searcher}, {@link dev.headroom.runner.Calibrator} and {@link
 * dev.headroom.runner.FidelityScore} do search's, calibrate's and fidelity's work. A library: no command line.
 */
package dev.headroom.runner;
