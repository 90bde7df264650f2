package dev.headroom.model;

/**
 * What one worker of a distributed load point did (docs/distributed.md): its share, how many records it returned,
 * its clock's offset to the coordinator's and how sure that is, what its client observed of itself, and what went
 * wrong, if anything.
 *
 * @param worker               its number in the share (0-based)
 * @param address              where the coordinator reached it (never a token)
 * @param records              records it returned, warm-up included
 * @param offsetMs             its clock minus the coordinator's, measured before the run (minimum-delay sample)
 * @param offsetUncertaintyMs  half that sample's round trip: how far the offset may be off
 * @param driftMs              the offset measured after the run minus the one before (NaN when not measured after)
 * @param client               what its client observed of itself while it ran
 * @param problem              why the worker's share fell short (it died, stalled or failed), or null
 */
public record WorkerRun(
        int worker,
        String address,
        long records,
        double offsetMs,
        double offsetUncertaintyMs,
        double driftMs,
        ClientHealth.Observed client,
        String problem) {

    /** Whether its share fell short of what it was handed. */
    public boolean degraded() {
        return problem != null;
    }

    /** The clock's error bound for its records: the offset's uncertainty plus how far it drifted over the run. */
    public double clockErrorMs() {
        return offsetUncertaintyMs + (Double.isNaN(driftMs) ? 0 : Math.abs(driftMs));
    }
}
