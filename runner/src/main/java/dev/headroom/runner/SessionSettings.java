package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.ThinkTime;

/**
 * What each session does, as a user gives it (null: not given): turns, the lengths of each new message and answer
 * (distribution texts), a shared system prompt, fan-out, tool calls, the server's context.
 */
public record SessionSettings(
        Integer turns,
        String turnIsl,
        String turnOsl,
        Integer systemPromptTokens,
        Integer fanOut,
        Integer toolCalls,
        Integer maxContext) {
    /** None given. */
    public static final SessionSettings NONE = new SessionSettings(null, null, null, null, null, null, null);

    /**
     * The sessions asked for (with {@code think}'s wait), or null without {@code sessions}, where a session setting
     * alone is bad input. Replaying conversations of up to {@code datasetTurns} user turns (0: none), a session has its
     * conversation's turns (at most {@code turns}) and asks each answer for the recorded reply's length unless
     * {@code turnOsl}.
     */
    public SessionSpec spec(boolean sessions, ThinkTime think, int datasetTurns) {
        if (!sessions) {
            String given = given();
            if (given != null) throw new BadInputException("{" + given + "} needs --sessions or --session-rate");
            return null;
        }
        boolean replay = datasetTurns > 0;
        if (replay && turnIsl != null) {
            throw new BadInputException("{turn-isl}: a replayed conversation's messages are its own; drop it");
        }
        return new SessionSpec(
                turns != null ? turns : replay ? datasetTurns : 4,
                turnIsl != null ? length("turn-isl", turnIsl) : replay ? null : new LengthDistribution.Fixed(128),
                turnOsl != null ? length("turn-osl", turnOsl) : replay ? null : new LengthDistribution.Fixed(128),
                think,
                systemPromptTokens == null ? 0 : systemPromptTokens,
                fanOut == null ? 0 : fanOut,
                toolCalls == null ? 0 : toolCalls,
                maxContext == null ? 0 : maxContext);
    }

    private String given() {
        if (turns != null) return "turns";
        if (turnIsl != null) return "turn-isl";
        if (turnOsl != null) return "turn-osl";
        if (systemPromptTokens != null) return "system-prompt-tokens";
        if (fanOut != null) return "fan-out";
        if (toolCalls != null) return "tool-calls";
        if (maxContext != null) return "max-context";
        return null;
    }

    private static LengthDistribution length(String setting, String text) {
        try {
            return LengthDistribution.parse(text);
        } catch (BadInputException e) {
            throw new BadInputException("{" + setting + "}: " + e.getMessage());
        }
    }
}
