package dev.headroom.model.fit;

import dev.headroom.model.Measurer;
import java.util.List;

/** A model of a server with free parameters: given their values, it measures any observation's load point. */
public interface ParametricServer {
    List<Parameter> parameters();

    /** The server {@code values} (one per {@link #parameters()}) describe, as it would serve {@code o}. */
    Measurer measurer(double[] values, Observation o);
}
