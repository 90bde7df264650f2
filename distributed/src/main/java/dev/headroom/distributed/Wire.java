package dev.headroom.distributed;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.ThinkTime;
import java.io.UncheckedIOException;

/**
 * The JSON a coordinator and its workers exchange: the domain's own records, the sealed ones tagged with their
 * variant's name; a load point's stop rule stays with the coordinator (it is code, and it judges the merged stream).
 */
final class Wire {
    private Wire() {}

    static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addMixIn(LoadModel.class, Tagged.class)
            .addMixIn(ArrivalProcess.class, Arrivals.class)
            .addMixIn(LengthDistribution.class, Lengths.class)
            .addMixIn(ThinkTime.class, Thinking.class)
            .addMixIn(MeasurementRequest.class, Point.class);

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = LoadModel.Closed.class, name = "closed"),
        @JsonSubTypes.Type(value = LoadModel.Open.class, name = "open")
    })
    private interface Tagged {}

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ArrivalProcess.Constant.class, name = "constant"),
        @JsonSubTypes.Type(value = ArrivalProcess.Poisson.class, name = "poisson"),
        @JsonSubTypes.Type(value = ArrivalProcess.Gamma.class, name = "gamma"),
        @JsonSubTypes.Type(value = ArrivalProcess.Replay.class, name = "replay")
    })
    private interface Arrivals {}

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = LengthDistribution.Fixed.class, name = "fixed"),
        @JsonSubTypes.Type(value = LengthDistribution.Normal.class, name = "normal"),
        @JsonSubTypes.Type(value = LengthDistribution.Uniform.class, name = "uniform"),
        @JsonSubTypes.Type(value = LengthDistribution.LogNormal.class, name = "lognormal")
    })
    private interface Lengths {}

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ThinkTime.Fixed.class, name = "fixed"),
        @JsonSubTypes.Type(value = ThinkTime.Exponential.class, name = "exponential"),
        @JsonSubTypes.Type(value = ThinkTime.Uniform.class, name = "uniform"),
        @JsonSubTypes.Type(value = ThinkTime.LogNormal.class, name = "lognormal")
    })
    private interface Thinking {}

    private abstract static class Point {
        @JsonIgnore
        abstract MeasurementRequest.StopRule stopEarly();
    }
}
