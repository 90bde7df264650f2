package dev.headroom.model.fit;

import java.util.List;

/**
 * The twins a calibration chooses among: one per scheduler shape, each with a batch cap, its free terms starting
 * from given values. The optimizer chooses and fits through this; the simulator builds them.
 */
public interface TwinFamily {
    /** Each shape in words, in order of preference when probes cannot tell two apart. */
    List<String> shapes();

    /**
     * The twin of shape {@code shape} with batch cap {@code cap}, its parameters' priors (where a fit starts and what
     * it pulls towards) at {@code start}, or at the starting profile's values when null.
     */
    ParametricServer twin(int shape, int cap, double[] start);
}
