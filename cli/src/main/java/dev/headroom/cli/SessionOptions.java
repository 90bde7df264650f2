package dev.headroom.cli;

import dev.headroom.runner.SessionSettings;
import picocli.CommandLine.Option;

/** What each session does, with --sessions or --session-rate: turns, their lengths, fan-out, tools, the context. */
public final class SessionOptions {
    @Option(names = "--turns", paramLabel = "K")
    Integer turns;

    @Option(names = "--turn-isl", paramLabel = "DIST")
    String turnIsl;

    @Option(names = "--turn-osl", paramLabel = "DIST")
    String turnOsl;

    @Option(names = "--system-prompt-tokens", paramLabel = "N")
    Integer systemPromptTokens;

    @Option(names = "--fan-out", paramLabel = "M")
    Integer fanOut;

    @Option(names = "--tool-calls", paramLabel = "N")
    Integer toolCalls;

    @Option(names = "--max-context", paramLabel = "TOKENS")
    Integer maxContext;

    /** The options as the runner's value. */
    SessionSettings settings() {
        return new SessionSettings(turns, turnIsl, turnOsl, systemPromptTokens, fanOut, toolCalls, maxContext);
    }
}
