package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.SessionSpec;
import java.util.Locale;

/**
 * Refuses, before any load, a workload whose requests cannot fit the context the server says it gives one request
 * (per slot on llama.cpp): independent requests whose mean prompt plus answer exceed it, or sessions whose last turn —
 * the whole history resent, counted as the server counts it — and its answer do. Such a run would only measure
 * refusals (HTTP 400) or answers cut short.
 */
final class ContextFit {
    private ContextFit() {}

    /** Throws when the point does not fit {@code facts}' context per request; nothing when it is not stated. */
    static void check(ServerFacts facts, MeasurementRequest point, WorkloadSpec workload, SessionPrompts sessions) {
        if (facts == null || facts.contextPerRequest().isEmpty()) return;
        long context = facts.contextPerRequest().getAsLong();
        String where = facts.source(ServerFacts.Key.CONTEXT_PER_REQUEST);
        SessionSpec spec = point.sessions();
        if (spec != null) {
            if (sessions == null || (spec.maxContextTokens() > 0 && spec.maxContextTokens() <= context)) return;
            int[] last = sessions.longestTurn();
            if (last == null || last[0] + last[1] <= context) return;
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "turn %d of each session is about %d prompt tokens as the server counts them (the system prompt, "
                            + "%d messages and %d answers resent, the chat template) and asks for %d more: %d > the "
                            + "%d tokens the server gives one request (%s); shorten the sessions ({turns}, "
                            + "{turn-isl}, {turn-osl}, {system-prompt-tokens}) or cap their history with {max-context}",
                    spec.turns(),
                    last[0],
                    spec.turns(),
                    spec.turns() - 1,
                    last[1],
                    last[0] + last[1],
                    context,
                    where));
        }
        if (workload.dataset() != null
                || workload.trace() != null
                || point.workload().outputTokens() == null) return;
        long isl = Math.round(point.workload().inputTokens().mean()) + workload.sharedPrefixTokens();
        long osl = Math.round(point.workload().outputTokens().mean());
        if (isl + osl > context) {
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "a request of %d prompt and %d answer tokens (the means of {isl} and {osl}) does not fit the %d "
                            + "tokens the server gives one request (%s)",
                    isl,
                    osl,
                    context,
                    where));
        }
    }
}
