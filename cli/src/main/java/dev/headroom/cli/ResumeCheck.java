package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.RunInfo;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.optimizer.SearchSpec;

import java.util.Objects;

/**
 * A search resumes only with the settings that produced its finished probes; otherwise reusing them would answer a
 * different question. What may change: --tolerance and --max-probes (e.g. to carry a search further).
 */
final class ResumeCheck {
    private ResumeCheck() {}

    static void sameSearch(SearchReport previous, RunInfo now, SearchSpec search, boolean virtual) {
        same("--objective", previous.objective(), search.objective().wireName());
        same("--slo", String.join(" ", previous.slos().stream().map(Slo::text).toList()),
                String.join(" ", search.slos().stream().map(Slo::text).toList()));
        same("--min", previous.min(), search.min());
        same("--max", previous.max(), search.max());
        same("--seed", previous.run().seed(), now.seed());
        same("workload", previous.run().workload(), now.workload());
        same("--virtual", previous.simulated(), virtual);
        same("--load-axis", previous.run().load().getClass().getSimpleName(), now.load().getClass().getSimpleName());
        // The embedded simulator listens on a new port each run: what it simulates identifies it.
        if (now.simulator() != null || previous.run().simulator() != null) same("simulator", previous.run().simulator(), now.simulator());
        else same("--url", previous.run().url(), now.url());
        if (search.objective() == SearchSpec.Objective.MAX_GOODPUT
                && previous.probes().stream().anyMatch(p -> Double.isNaN(p.goodput()[0]))) {
            throw new BadInputException("--resume: the search.json is from an older Headroom; start a new search");
        }
    }

    private static void same(String what, Object before, Object now) {
        boolean equal = before instanceof Double a && now instanceof Double b ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a))
                : Objects.equals(before, now);
        if (!equal) {
            throw new BadInputException("--resume: " + what + " was " + before + " in the interrupted search, now "
                    + now + "; resume with the same options, or start a new search");
        }
    }
}
