package dev.headroom.model;

/**
 * What a search's console line says after a probe.
 *
 * @param reused     the probe was taken from the interrupted search, not measured
 * @param soakFactor how many times as long as its first measurement the probe ran (a soak), or 0
 * @param bracket    a boundary search's [largest passing, smallest failing) by its fit (NaN where none); empty for
 *                   a goodput search
 * @param best       a goodput search's best probe so far, [load, goodput]; empty for a boundary search
 */
public record SearchProgress(boolean reused, int soakFactor, double[] bracket, double[] best) {}
