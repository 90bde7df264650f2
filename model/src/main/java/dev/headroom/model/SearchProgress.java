package dev.headroom.model;

/**
 * What a search's console line says after a probe.
 *
 * @param reused     the probe was taken from the interrupted search, not measured
 * @param soakFactor how many times as long as its first measurement the probe ran (a soak), or 0
 * @param bracket    a boundary search's bracket by its fit; null for a goodput search
 * @param best       a goodput search's best probe so far; null for a boundary search
 * @param drift      the probe measured the drift reference again: what it found; null for the search's own probes
 */
public record SearchProgress(boolean reused, int soakFactor, Bracket bracket, Best best, SearchDrift.Check drift) {
    /** [largest passing, smallest failing) load, NaN where there is none yet. */
    public record Bracket(double passing, double failing) {}

    /** The best goodput measured so far, and where. */
    public record Best(double load, double goodput) {}
}
