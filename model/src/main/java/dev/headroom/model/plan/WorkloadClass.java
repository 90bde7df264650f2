package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/**
 * One kind of traffic in the forecast: its request shape, the SLO it must meet, and how much of it arrives.
 *
 * @param isl     mean input tokens per request; for a class in sessions, per session ({@link SessionShape#inputTokens})
 * @param osl     mean output tokens per request; for a class in sessions, per session
 * @param slo     the SLO its capacities were measured under (text, for the report)
 * @param unit    what its traffic and capacities count: requests/s, new sessions/s or active users
 * @param session for a class in sessions or users, what each session sends; null for requests
 */
public record WorkloadClass(
        String name, double isl, double osl, String slo, Traffic traffic, LoadUnit unit, SessionShape session) {
    public WorkloadClass {
        if (name == null || name.isBlank()) throw new BadInputException("a forecast class needs a name");
        if (unit == null) unit = LoadUnit.REQUESTS;
        if (unit.sessions() != (session != null)) {
            throw new BadInputException("class " + name + ": a class in " + unit.wireName()
                    + (unit.sessions()
                            ? " needs a session block (turns, turn_isl, turn_osl)"
                            : " takes no session block"));
        }
        if (session != null) {
            isl = session.inputTokens();
            osl = session.outputTokens();
        }
        if (!(isl >= 0) || !(osl > 0)) {
            throw new BadInputException("class " + name + ": isl must be >= 0 and osl > 0, got " + isl + " and " + osl);
        }
    }

    /** A class of independent requests. */
    public WorkloadClass(String name, double isl, double osl, String slo, Traffic traffic) {
        this(name, isl, osl, slo, traffic, LoadUnit.REQUESTS, null);
    }

    /** A class of sessions, counted in new sessions per second or in active users. */
    public static WorkloadClass ofSessions(
            String name, SessionShape session, LoadUnit unit, String slo, Traffic traffic) {
        return new WorkloadClass(name, 0, 1, slo, traffic, unit, session);
    }

    /** Input plus output tokens of one request, or of one session for a class in sessions or users. */
    public double tokensPerUnit() {
        return isl + osl;
    }
}
