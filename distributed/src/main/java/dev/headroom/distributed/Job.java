package dev.headroom.distributed;

import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Share;

/**
 * One worker's part of one load point, as the coordinator hands it over.
 *
 * @param point              the whole load point (its stop rule stays with the coordinator)
 * @param share              which part of it this worker runs
 * @param runSalt            what makes the run's prompts its own, the same on every worker
 * @param sharedPrefixTokens filler tokens common to every prompt (0: none)
 */
record Job(TargetSpec target, MeasurementRequest point, Share share, String runSalt, int sharedPrefixTokens) {}
