/**
 * Domain types every module shares: load points ({@link dev.headroom.model.MeasurementRequest}, {@link
 * dev.headroom.model.LoadModel}, workloads, sessions), request records, the metrics and their one definition ({@link
 * dev.headroom.model.Metrics}, {@link dev.headroom.model.MetricsRecorder}), the one SLO judge ({@link
 * dev.headroom.model.SloJudge}), and {@link dev.headroom.model.Measurer}, through which the optimizer asks for
 * measurements without knowing who makes them.
 */
package dev.headroom.model;
