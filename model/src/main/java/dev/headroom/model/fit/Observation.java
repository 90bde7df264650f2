package dev.headroom.model.fit;

import dev.headroom.model.MeasurementRequest;
import java.util.List;

/**
 * What was seen at one load point of one server: the point (as every driver runs it) and the numbers observed.
 *
 * @param id      unique name of the point
 * @param source  where it comes from (a publication, a probe set): cross-validation leaves whole sources out
 * @param group   which of a model's parameter sets it belongs to (a hardware profile; one group for one server)
 * @param tags    further parameter sets it belongs to (e.g. the engine software that served it)
 */
public record Observation(
        String id, String source, String group, List<String> tags, MeasurementRequest request, List<Target> targets) {
    public Observation {
        if (id == null || source == null || group == null || request == null) {
            throw new IllegalArgumentException("an observation needs an id, a source, a group and a request");
        }
        tags = List.copyOf(tags);
        targets = List.copyOf(targets);
    }

    /** Of one group only. */
    public Observation(String id, String source, String group, MeasurementRequest request, List<Target> targets) {
        this(id, source, group, List.of(), request, targets);
    }
}
