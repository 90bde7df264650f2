package dev.headroom.model;

/**
 * Multi-turn conversations: each of a load point's users (closed loop) or arrivals (open loop) is a session of
 * {@code turns} turns. Every turn resends the history — the shared system prompt, the earlier user messages and the
 * server's actual answers — plus a new user message, then waits the think time after the answer. A turn may fan out
 * to sub-calls sent in parallel, whose answers join the next turn's context, and may make tool-call rounds that
 * send back a short fixed result. Histories that would exceed {@code maxContextTokens} drop their oldest turns.
 *
 * @param turns              turns per session (>= 1)
 * @param turnInput          tokens of each new user message; null: a replayed conversation's own messages
 * @param turnOutput         tokens asked for each answer (max_tokens); null: the length of the reply a replayed
 *                           conversation recorded
 * @param thinkTime          the wait after each answer before the session's next turn
 * @param systemPromptTokens a system prompt shared by every session (0: none)
 * @param fanOut             sub-calls per turn, sent in parallel after the turn's answer (0: none)
 * @param toolCalls          tool-call rounds per turn after its answer, each a short fixed tool result (0: none)
 * @param maxContextTokens   the server's context: history is capped so prompt plus answer fit (0: no cap)
 */
public record SessionSpec(
        int turns,
        LengthDistribution turnInput,
        LengthDistribution turnOutput,
        ThinkTime thinkTime,
        int systemPromptTokens,
        int fanOut,
        int toolCalls,
        int maxContextTokens) {
    /** The tokens of a tool call's result message. */
    public static final int TOOL_RESULT_TOKENS = 16;

    public SessionSpec {
        if (turns < 1) throw new BadInputException("{turns} must be >= 1, got " + turns);
        if (thinkTime == null) thinkTime = ThinkTime.NONE;
        if (systemPromptTokens < 0) {
            throw new BadInputException("{system-prompt-tokens} must be >= 0, got " + systemPromptTokens);
        }
        if (fanOut < 0) throw new BadInputException("{fan-out} must be >= 0, got " + fanOut);
        if (toolCalls < 0) throw new BadInputException("{tool-calls} must be >= 0, got " + toolCalls);
        if (maxContextTokens < 0) throw new BadInputException("{max-context} must be >= 0, got " + maxContextTokens);
    }

    /** Plain chat sessions: no fan-out, no tools, no context cap. */
    public static SessionSpec chat(
            int turns, LengthDistribution turnInput, LengthDistribution turnOutput, ThinkTime thinkTime, int system) {
        return new SessionSpec(turns, turnInput, turnOutput, thinkTime, system, 0, 0, 0);
    }

    /** Requests each turn sends: its own, its sub-calls and its tool rounds. */
    public int callsPerTurn() {
        return 1 + fanOut + toolCalls;
    }

    /** One line saying what each session does, for config.yaml and summary.json. */
    public String describe() {
        return turns
                + (turnInput == null
                        ? " turns at most, conversations replayed"
                        : " turns, turn isl " + turnInput.text())
                + ", osl " + (turnOutput == null ? "as recorded" : turnOutput.text())
                + (systemPromptTokens > 0 ? ", system prompt " + systemPromptTokens : "")
                + (thinkTime.meanSeconds() > 0 ? ", think " + thinkTime.text() : "")
                + (fanOut > 0 ? ", fan-out " + fanOut : "")
                + (toolCalls > 0 ? ", tool calls " + toolCalls : "")
                + (maxContextTokens > 0 ? ", context " + maxContextTokens : "");
    }
}
