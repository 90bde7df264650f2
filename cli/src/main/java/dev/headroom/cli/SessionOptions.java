package dev.headroom.cli;

import dev.headroom.runner.SessionSettings;
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

    /** The options as the runner's value. */
    SessionSettings settings() {
        return new SessionSettings(turns, turnIsl, turnOsl, systemPromptTokens, fanOut, toolCalls, maxContext);
    }
}
