package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.ThinkTime;
import picocli.CommandLine.Option;

/** What each session does, with --sessions or --session-rate: turns, their lengths, fan-out, tools, the context. */
public final class SessionOptions {
    @Option(names = "--turns", paramLabel = "K", description = "Sessions: turns per session (default: 4).")
    Integer turns;

    @Option(
            names = "--turn-isl",
            paramLabel = "DIST",
            description = "Sessions: tokens of each new user message, a number or fixed:N, normal:MEAN,SD, "
                    + "uniform:MIN,MAX, lognormal:MEAN,SD (default: 128).")
    String turnIsl;

    @Option(
            names = "--turn-osl",
            paramLabel = "DIST",
            description = "Sessions: tokens asked for each answer, sent as max_tokens (default: 128).")
    String turnOsl;

    @Option(
            names = "--system-prompt-tokens",
            paramLabel = "N",
            description = "Sessions: a system prompt of about N tokens shared by every session of the run "
                    + "(default: none).")
    Integer systemPromptTokens;

    @Option(
            names = "--fan-out",
            paramLabel = "M",
            description = "Sessions: after each answer, M sub-calls sent in parallel, each the system prompt and a "
                    + "task of --turn-isl tokens; their answers join the next turn's message (default: 0).")
    Integer fanOut;

    @Option(
            names = "--tool-calls",
            paramLabel = "N",
            description = "Sessions: after each answer, N tool-call rounds, each resending the history with a short "
                    + "fixed tool result (default: 0).")
    Integer toolCalls;

    @Option(
            names = "--max-context",
            paramLabel = "TOKENS",
            description = "Sessions: the server's context; a history that would not fit drops its oldest turns, "
                    + "and the records say how many (default: no cap).")
    Integer maxContext;

    /** The sessions asked for (with {@code think}'s wait), or null without sessions; session options alone fail. */
    SessionSpec toSpec(boolean sessions, ThinkTime think) {
        return toSpec(sessions, think, 0);
    }

    /**
     * As above, replaying conversations of up to {@code datasetTurns} user turns (0: none): then a session has its
     * conversation's turns (at most --turns) and asks each answer for the recorded reply's length unless --turn-osl.
     */
    SessionSpec toSpec(boolean sessions, ThinkTime think, int datasetTurns) {
        if (!sessions) {
            String given = given();
            if (given != null) throw new BadInputException(given + " needs --sessions or --session-rate");
            return null;
        }
        boolean replay = datasetTurns > 0;
        if (replay && turnIsl != null) {
            throw new BadInputException("--turn-isl: a replayed conversation's messages are its own; drop it");
        }
        return new SessionSpec(
                turns != null ? turns : replay ? datasetTurns : 4,
                turnIsl != null ? length("--turn-isl", turnIsl) : replay ? null : new LengthDistribution.Fixed(128),
                turnOsl != null ? length("--turn-osl", turnOsl) : replay ? null : new LengthDistribution.Fixed(128),
                think,
                systemPromptTokens == null ? 0 : systemPromptTokens,
                fanOut == null ? 0 : fanOut,
                toolCalls == null ? 0 : toolCalls,
                maxContext == null ? 0 : maxContext);
    }

    private String given() {
        if (turns != null) return "--turns";
        if (turnIsl != null) return "--turn-isl";
        if (turnOsl != null) return "--turn-osl";
        if (systemPromptTokens != null) return "--system-prompt-tokens";
        if (fanOut != null) return "--fan-out";
        if (toolCalls != null) return "--tool-calls";
        if (maxContext != null) return "--max-context";
        return null;
    }

    private static LengthDistribution length(String flag, String text) {
        try {
            return LengthDistribution.parse(text);
        } catch (BadInputException e) {
            throw new BadInputException(flag + ": " + e.getMessage());
        }
    }
}
