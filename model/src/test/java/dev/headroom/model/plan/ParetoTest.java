package dev.headroom.model.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParetoTest {
    static ParetoPoint p(String name, double user, double gpu, double dollars, Boolean feasible) {
        return new ParetoPoint(name, "", user, gpu, dollars, feasible, false, false);
    }

    static List<String> front(List<ParetoPoint> marked) {
        return marked.stream()
                .filter(ParetoPoint::onFront)
                .map(ParetoPoint::source)
                .toList();
    }

    static List<String> costFront(List<ParetoPoint> marked) {
        return marked.stream()
                .filter(ParetoPoint::onCostFront)
                .map(ParetoPoint::source)
                .toList();
    }

    @Test
    void aPointBeatenOnBothAxesIsOffTheFront() {
        var m = Pareto.mark(List.of(
                p("fast", 100, 100, 9, true),
                p("dense", 20, 2000, 0.5, true),
                p("between", 60, 900, 1, true),
                p("beaten", 50, 800, 1.2, true)));
        assertEquals(List.of("fast", "dense", "between"), front(m));
        assertEquals(List.of("fast", "dense", "between"), costFront(m));
    }

    @Test
    void aPointThatBrokeItsSloIsNeverOnAFrontAndBeatsNothing() {
        var m = Pareto.mark(List.of(p("ok", 50, 500, 2, true), p("broke", 60, 900, 1, false)));
        assertEquals(List.of("ok"), front(m));
        assertEquals(List.of("ok"), costFront(m));
    }

    @Test
    void withoutAnSloEveryPointCountsAndWithoutAPriceThereIsNoCostFront() {
        var m = Pareto.mark(List.of(p("a", 50, 500, Double.NaN, null), p("b", 40, 400, Double.NaN, null)));
        assertEquals(List.of("a"), front(m));
        assertEquals(List.of(), costFront(m));
    }

    @Test
    void theCostFrontCanDifferFromThePerGpuOne() {
        // Two GPU types at the same stream speed: "big" serves more per GPU, "cheap" costs less per token.
        var m = Pareto.mark(List.of(p("big", 50, 1000, 1.0, true), p("cheap", 50, 400, 0.6, true)));
        assertEquals(List.of("big"), front(m));
        assertEquals(List.of("cheap"), costFront(m));
    }
}
