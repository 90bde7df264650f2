package dev.headroom.runner;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.RunLength;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.Workload;
import dev.headroom.optimizer.Goodput;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.WorkloadSpec;
import java.time.Duration;
import java.util.List;

/**
 * A search as a user names it (the words {@code search}'s options take): what to find, the SLOs, the range, the
 * precision and the probes' size; {@link #spec} makes the optimizer's validated {@link SearchSpec} of it.
 *
 * @param objective max-concurrency, max-rate or max-goodput
 * @param goodputUnit requests or tokens
 * @param loadAxis max-goodput's axis: concurrency or rate
 * @param loadUnit requests or sessions
 */
public record SearchSettings(
        String objective,
        List<Slo> slos,
        double min,
        double max,
        double tolerance,
        int maxProbes,
        int probeRequests,
        Duration probeDuration,
        String goodputUnit,
        String loadAxis,
        String loadUnit,
        long seed) {
    /** Whether the probes are open loop (a rate): then they arrive as {@code openArrivals}. */
    public boolean openLoop() {
        return SearchSpec.Objective.parse(objective).openLoop(SearchSpec.LoadAxis.parse(loadAxis));
    }

    /**
     * The search, its probes of {@code work} (a fixed 256-token answer unless the output length is set), open-loop
     * ones arriving as {@code openArrivals}; with a load of sessions, each as {@code sessions} say with {@code think}.
     */
    public SearchSpec spec(WorkloadSpec work, ArrivalProcess openArrivals, SessionSettings sessions, ThinkTime think) {
        SearchSpec.Objective obj = SearchSpec.Objective.parse(objective);
        boolean open = openLoop();
        Workload w = new Workload(
                work.inputTokens(),
                work.outputTokens() == null ? new LengthDistribution.Fixed(256) : work.outputTokens(),
                work.ignoreEos());
        SearchSpec independent = new SearchSpec(
                obj,
                slos,
                min,
                max,
                tolerance,
                maxProbes,
                w,
                new RunLength(probeRequests, probeDuration.toMillis() / 1000.0),
                open ? openArrivals : new ArrivalProcess.Poisson(),
                seed,
                open,
                Goodput.Unit.parse(goodputUnit));
        SessionSpec conversations = sessions.spec(sessionLoad(), think, 0);
        if (conversations == null) ProbePlan.fixedThinkSeconds(think); // a distribution is for sessions
        Slo.requireSessionsFor(slos, conversations != null);
        return conversations == null ? independent : independent.withSessions(conversations);
    }

    private boolean sessionLoad() {
        return switch (loadUnit.trim()) {
            case "requests" -> false;
            case "sessions" -> true;
            default ->
                throw new BadInputException("bad {load-unit} '" + loadUnit + "': valid values are requests, sessions");
        };
    }
}
