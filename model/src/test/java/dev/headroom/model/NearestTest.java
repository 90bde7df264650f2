package dev.headroom.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestTest {
    @Test
    void aSwapOfNeighbouringLettersCountsAsOneEdit() {
        assertEquals(1, Nearest.distance("sol", "slo"));
        assertEquals(2, Nearest.distance("sol", "isl"));
        assertEquals(List.of("osl", "slo"), Nearest.to("sol", List.of("name", "isl", "osl", "slo", "traffic")));
        assertEquals("; did you mean 'osl' or 'slo'?", Nearest.didYouMean("sol", List.of("isl", "osl", "slo"), "'"));
        assertEquals(List.of("slo"), Nearest.to("slos", List.of("isl", "osl", "slo")));
    }

    @Test
    void aNameFarFromEveryValidOneSuggestsNothing() {
        assertEquals(3, Nearest.distance("kitten", "sitting"));
        assertEquals(List.of(), Nearest.to("zzzz", List.of("concurrency", "rate")));
        assertEquals(List.of(), Nearest.to("-x", List.of("-a", "-b", "-c", "-d")), "too many as near");
        assertEquals("", Nearest.didYouMean("zzzz", List.of("concurrency", "rate"), "'"));
        assertEquals(List.of("concurrency"), Nearest.to("concurency", List.of("concurrency", "config")));
    }
}
