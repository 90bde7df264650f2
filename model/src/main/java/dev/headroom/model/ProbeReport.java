package dev.headroom.model;

/** One probe's result as {@code summary.json} publishes it: what ran, what was measured, the client's health. */
public record ProbeReport(RunInfo run, Summary summary, ClientHealth client) {}
